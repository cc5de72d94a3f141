package dev.seckill.infra.harness;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.redis.RedisConnections;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;

/**
 * One isolated run of the pipeline beside any other: its own topic prefix, Redis key prefix, database and
 * consumer groups. Demos, drills and end-to-end tests each get one.
 */
public record Namespace(String name, Settings settings) {

    public static Namespace create(Settings base, String name) {
        String db = "seckill_" + name.replaceAll("[^A-Za-z0-9_]", "_");
        String url = base.dbUrl();
        String server = url.substring(0, url.indexOf('/', "jdbc:mysql://".length()));
        // the base URL's own parameters (TLS: sslMode, the truststore) stay; only the database is the namespace's
        int q = url.indexOf('?');
        String params = q < 0 ? "" : url.substring(q + 1).replaceAll("(^|&)createDatabaseIfNotExist=[^&]*", "");
        params = params.replaceAll("^&", "");
        return new Namespace(
                name,
                base.and(Map.of(
                        Settings.TOPIC_PREFIX,
                        name + ".",
                        Settings.REDIS_PREFIX,
                        name + ":",
                        Settings.DB_URL,
                        server + "/" + db + "?createDatabaseIfNotExist=true"
                                + (params.isEmpty() ? "" : "&" + params))));
    }

    /**
     * Deletes this namespace's topics (its own and the stream app's internal changelogs, all under its prefix), so
     * that repeated benchmark runs do not leave a broker carrying thousands of idle partitions. Returns how many.
     */
    public int deleteTopics() {
        String prefix = settings.topicPrefix();
        try (Admin admin = KafkaClients.admin(settings)) {
            List<String> mine = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(prefix))
                    .toList();
            if (!mine.isEmpty()) admin.deleteTopics(mine).all().get(60, TimeUnit.SECONDS);
            return mine.size();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting the topics of " + name, e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            String why = cause instanceof TimeoutException
                            || cause instanceof org.apache.kafka.common.errors.TimeoutException
                    ? "Kafka at " + settings.kafkaBootstrap() + " did not answer (./seckill up starts one)"
                    : cause.getClass().getSimpleName() + ": " + cause.getMessage();
            throw new IllegalStateException("could not delete the topics of " + name + ": " + why, e);
        }
    }

    /**
     * Deletes this namespace's Redis keys (SCAN and UNLINK in pages: never a blocking KEYS), e.g. the gateway's purchase
     * status entries a benchmark leaves by the hundred thousand. Returns how many.
     */
    public long deleteRedisKeys() {
        long deleted = 0;
        try (UnifiedJedis jedis = RedisConnections.open(settings)) {
            String cursor = ScanParams.SCAN_POINTER_START;
            ScanParams page =
                    new ScanParams().match(settings.redisPrefix() + "*").count(1000);
            do {
                var scan = jedis.scan(cursor, page);
                if (!scan.getResult().isEmpty())
                    deleted += jedis.unlink(scan.getResult().toArray(String[]::new));
                cursor = scan.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        return deleted;
    }

    /** Drops this namespace's database, if it exists. */
    public void dropDatabase() {
        try (Connection c = DriverManager.getConnection(settings.dbUrl(), settings.dbUser(), settings.dbPassword());
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS `" + database() + "`");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop the database of " + name + ": " + e.getMessage(), e);
        }
    }

    public String database() {
        String url = settings.dbUrl();
        String path = url.substring(url.indexOf('/', "jdbc:mysql://".length()) + 1);
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }
}
