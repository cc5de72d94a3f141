package dev.seckill.infra.harness;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.kit.kafka.KafkaClients;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.common.errors.GroupNotEmptyException;

/**
 * The namespaces a stack holds: the live one (the configured topic prefix, Redis prefix and database) and every run
 * of the demo, a drill, a benchmark or a test ({@link Namespace}). A namespace exists when its {@code commands} topic
 * does. Operators pick one with {@code --namespace NAME} and remove one with {@code ./seckill clean}.
 */
public final class Namespaces {
    /** One namespace as the stack holds it. */
    public record Entry(String name, int topics, boolean database, boolean live) {}

    private final Settings base;

    public Namespaces(Settings base) {
        this.base = base;
    }

    /** The name of the live namespace: the configured topic prefix without its trailing dot. */
    public String liveName() {
        String p = base.topicPrefix();
        return p.endsWith(".") ? p.substring(0, p.length() - 1) : p;
    }

    /** The settings of namespace {@code name} (the live settings for the live name), or an error naming those that exist. */
    public Settings settingsOf(String name) {
        if (name.equals(liveName())) return base;
        List<Entry> all = list();
        if (all.stream().noneMatch(e -> e.name().equals(name))) {
            throw new NoSuchNamespace("no namespace '" + name + "' on " + base.kafkaBootstrap() + " (no topic " + name
                    + ".commands); namespaces here: "
                    + String.join(", ", all.stream().map(Entry::name).toList()));
        }
        return Namespace.create(base, name).settings();
    }

    /** Every namespace on the broker, by name: its topic count, whether its database exists, whether it is the live one. */
    public List<Entry> list() {
        Map<String, Integer> topics = new TreeMap<>();
        Set<String> names = topicNames();
        for (String t : names) {
            if (!t.endsWith(".commands")) continue;
            String name = t.substring(0, t.length() - ".commands".length());
            topics.put(name, (int)
                    names.stream().filter(n -> n.startsWith(name + ".")).count());
        }
        Set<String> databases = databases();
        List<Entry> out = new ArrayList<>();
        topics.forEach((name, n) -> out.add(new Entry(
                name,
                n,
                name.equals(liveName())
                        ? true
                        : databases.contains(Namespace.create(base, name).database()),
                name.equals(liveName()))));
        return out;
    }

    /**
     * Removes a namespace: its topics, consumer groups, Redis keys and database; nothing else. Refuses the live one.
     * Returns what was removed, one line each.
     */
    public List<String> clean(String name) {
        if (name.equals(liveName())) {
            throw new NoSuchNamespace(
                    "refusing to clean '" + name + "': it is the live namespace (SECKILL_TOPIC_PREFIX)");
        }
        Namespace ns = Namespace.create(base, name);
        String prefix = ns.settings().topicPrefix();
        List<String> done = new ArrayList<>();
        done.add(ns.deleteTopics() + " topics " + prefix + "*");
        done.add(deleteGroups(prefix));
        done.add(ns.deleteRedisKeys() + " Redis keys " + ns.settings().redisPrefix() + "*");
        boolean had = databases().contains(ns.database());
        ns.dropDatabase();
        done.add((had ? "database " : "no database ") + ns.database());
        return done;
    }

    /**
     * Deletes the consumer groups under {@code prefix}. A group that still has members (a service of the namespace is
     * running, or stopped moments ago and its session has not expired) is kept and named in the line returned.
     */
    private String deleteGroups(String prefix) {
        try (Admin admin = admin()) {
            List<String> groups = admin.listConsumerGroups().all().get(30, TimeUnit.SECONDS).stream()
                    .map(ConsumerGroupListing::groupId)
                    .filter(g -> g.startsWith(prefix))
                    .toList();
            List<String> kept = new ArrayList<>();
            var results = admin.deleteConsumerGroups(groups).deletedGroups();
            for (String g : groups) {
                try {
                    results.get(g).get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof GroupNotEmptyException)) throw e;
                    kept.add(g);
                }
            }
            return (groups.size() - kept.size()) + " consumer groups " + prefix + "*"
                    + (kept.isEmpty()
                            ? ""
                            : " (kept " + kept + ": still with members; clean again once its services have stopped)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting the consumer groups " + prefix + "*", e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not delete the consumer groups " + prefix + "*: " + e.getMessage(), e);
        }
    }

    private Set<String> topicNames() {
        try (Admin admin = admin()) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing topics", e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not list the topics on " + base.kafkaBootstrap() + ": " + e.getMessage(), e);
        }
    }

    private Set<String> databases() {
        Set<String> out = new HashSet<>();
        String url = base.dbUrl();
        String server = url.substring(0, url.indexOf('/', "jdbc:mysql://".length())) + "/";
        try (Connection c = DriverManager.getConnection(
                        JdbcUrls.withDriverDefaults(server), base.dbUser(), base.dbPassword());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW DATABASES")) {
            while (rs.next()) out.add(rs.getString(1));
        } catch (SQLException e) {
            throw new IllegalStateException("could not list the databases: " + e.getMessage(), e);
        }
        return out;
    }

    private Admin admin() {
        return KafkaClients.admin(base, Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    /** An operator named a namespace that is not there, or asked for what must not be done to it. */
    public static final class NoSuchNamespace extends RuntimeException {
        public NoSuchNamespace(String message) {
            super(message);
        }
    }
}
