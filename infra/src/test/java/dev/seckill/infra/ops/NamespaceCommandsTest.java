package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.contracts.Topics;
import dev.seckill.infra.cli.Seckill;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code --namespace}, {@code namespaces} and {@code clean} over the real stack: two namespaces made as a demo makes
 * one (topics, Redis keys, a database); clean removes exactly one of them and leaves the other whole.
 */
class NamespaceCommandsTest {
    static final int TOPICS = new Topics("x.").all().size();
    final Settings base = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()));
    final String id = UUID.randomUUID().toString().substring(0, 8);
    final Namespace doomed = Namespace.create(base, "nsclean-a-" + id);
    final Namespace kept = Namespace.create(base, "nsclean-b-" + id);

    @AfterEach
    void cleanUp() {
        for (Namespace ns : new Namespace[] {doomed, kept}) {
            ns.deleteTopics();
            ns.deleteRedisKeys();
            ns.dropDatabase();
        }
    }

    void populate(Namespace ns) throws Exception {
        TopicProvisioner.ensure(base, new Topics(ns.settings().topicPrefix()), 2);
        try (UnifiedJedis redis = RedisConnections.open(ns.settings())) {
            redis.set(ns.settings().redisPrefix() + "stock:{1001}", "5");
        }
        try (Connection c = DriverManager.getConnection(ns.settings().dbUrl(), base.dbUser(), base.dbPassword())) {
            c.createStatement().execute("CREATE TABLE IF NOT EXISTS marker (id INT)");
        }
    }

    record Run(int exit, String out, String err) {}

    Run seckill(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int exit = Seckill.run(base, args, new PrintStream(out, true, StandardCharsets.UTF_8));
            return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
        }
    }

    Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", base.kafkaBootstrap()))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }

    boolean databaseExists(Namespace ns) throws Exception {
        String server = base.dbUrl().substring(0, base.dbUrl().indexOf('/', "jdbc:mysql://".length())) + "/";
        try (Connection c = DriverManager.getConnection(
                        server + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", base.dbUser(), base.dbPassword());
                var rs = c.createStatement().executeQuery("SHOW DATABASES LIKE '" + ns.database() + "'")) {
            return rs.next();
        }
    }

    @Test
    void anUnknownNamespaceIsRefusedInOneLineThatListsThoseThatExist_andCleanRemovesExactlyOne() throws Exception {
        populate(doomed);
        populate(kept);

        Run missing = seckill("reconcile", "--namespace", "no-such-" + id);
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err().strip().lines())
                .as("one readable line, no stack trace")
                .hasSize(1);
        assertThat(missing.err())
                .contains("no namespace 'no-such-" + id + "'")
                .contains(doomed.name())
                .contains(kept.name());

        Run listed = seckill("namespaces");
        assertThat(listed.exit()).isZero();
        assertThat(listed.out())
                .containsPattern(doomed.name() + "\\s+\\d+\\s+yes")
                .containsPattern(kept.name() + "\\s+\\d+\\s+yes");
        Run json = seckill("namespaces", "--json");
        assertThat(json.exit()).isZero();
        JsonNode doomedRow = StreamSupport.stream(
                        new ObjectMapper()
                                .readTree(json.out())
                                .get("namespaces")
                                .spliterator(),
                        false)
                .filter(n -> n.get("name").asText().equals(doomed.name()))
                .findFirst()
                .orElseThrow();
        assertThat(listed.out())
                .containsPattern(
                        doomed.name() + "\\s+" + doomedRow.get("topics").asInt() + "\\s+yes");
        assertThat(doomedRow.get("database").asBoolean()).isTrue();

        Run cleaned = seckill("clean", "--namespace", doomed.name());
        assertThat(cleaned.exit()).as(cleaned.err()).isZero();
        assertThat(cleaned.out())
                .contains("removed " + TOPICS + " topics " + doomed.name() + ".*")
                .contains("removed 1 Redis keys")
                .contains("removed database " + doomed.database());
        Set<String> after = topics();
        assertThat(after).noneMatch(t -> t.startsWith(doomed.name() + "."));
        assertThat(after.stream().filter(t -> t.startsWith(kept.name() + ".")).count())
                .as("the other namespace untouched")
                .isEqualTo(TOPICS);
        assertThat(databaseExists(doomed)).isFalse();
        assertThat(databaseExists(kept)).isTrue();
        try (UnifiedJedis redis = RedisConnections.open(base)) {
            assertThat(redis.exists(doomed.settings().redisPrefix() + "stock:{1001}"))
                    .isFalse();
            assertThat(redis.get(kept.settings().redisPrefix() + "stock:{1001}"))
                    .isEqualTo("5");
        }

        Run live = seckill("clean", "--namespace", "seckill");
        assertThat(live.exit()).isEqualTo(2);
        assertThat(live.err()).contains("refusing to clean 'seckill': it is the live namespace");
    }
}
