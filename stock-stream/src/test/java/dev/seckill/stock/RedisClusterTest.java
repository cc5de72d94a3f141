package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.RedisServer;
import dev.seckill.stack.ServerProcess;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.support.CommandLog;
import dev.seckill.stock.support.TestTopics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * A real 3-node Redis Cluster on loopback (spare ports, own folders): the same sale decided against it gives the
 * same outcomes as against a standalone Redis, with no CROSSSLOT errors (every script's keys share a hash tag).
 */
class RedisClusterTest {
    private final TestTopics topicsMade = new TestTopics();

    @AfterEach
    void deleteTheTopicsMade() throws Exception {
        topicsMade.deleteAll();
    }

    static final List<RedisServer> nodes = new ArrayList<>();
    static String seeds;

    @BeforeAll
    static void startCluster() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int port = ServerProcess.freePort();
            Path dir = Files.createTempDirectory("redis-cluster-" + port + "-");
            nodes.add(new RedisServer(
                            port,
                            dir,
                            List.of(
                                    "--cluster-enabled",
                                    "yes",
                                    "--cluster-config-file",
                                    dir.resolve("nodes.conf").toString(),
                                    "--cluster-node-timeout",
                                    "5000"))
                    .start());
            addresses.add("127.0.0.1:" + port);
        }
        List<String> create = new ArrayList<>(
                List.of(ServerProcess.requireBinary("redis-cli", "redis-tools").toString(), "--cluster", "create"));
        create.addAll(addresses);
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        ServerProcess.run(create, Duration.ofSeconds(60));
        seeds = String.join(",", addresses);
        ServerProcess.awaitReady(
                "cluster state ok",
                () -> {
                    try (RedisClient c =
                            RedisClient.create("127.0.0.1", nodes.get(0).port())) {
                        return new String((byte[]) c.sendCommand(Protocol.Command.CLUSTER, "INFO"))
                                .contains("cluster_state:ok");
                    } catch (RuntimeException e) {
                        return false;
                    }
                },
                null,
                Duration.ofSeconds(30),
                null);
    }

    @AfterAll
    static void stopCluster() {
        nodes.forEach(RedisServer::stop);
    }

    @Test
    void theSameSaleOnAClusterDecidesTheSame() {
        Topics a = new Topics(
                topicsMade.note("cluster-a-" + UUID.randomUUID().toString().substring(0, 6) + "."));
        Topics b = new Topics(
                topicsMade.note("cluster-b-" + UUID.randomUUID().toString().substring(0, 6) + "."));
        TopicProvisioner.ensure(KafkaFixture.settings(), a, 3);
        TopicProvisioner.ensure(KafkaFixture.settings(), b, 3);
        int purchases = CommandLog.write(KafkaFixture.bootstrap(), a, 8001, 6, 500, 11);
        Map<String, Outcome> standalone;
        try (TestRedis r = new TestRedis()) {
            standalone = CommandLog.decide(ReplayDeterminismTest.settings(a.prefix(), r), purchases);
        }
        CommandLog.copy(KafkaFixture.bootstrap(), a, b);
        Map<String, Outcome> cluster = CommandLog.decide(
                Settings.with(Map.of(
                        Settings.KAFKA_BOOTSTRAP,
                        KafkaFixture.bootstrap(),
                        Settings.TOPIC_PREFIX,
                        b.prefix(),
                        Settings.REDIS_CLUSTER,
                        seeds,
                        Settings.REDIS_PREFIX,
                        "c:",
                        "stream.threads",
                        "1")),
                purchases);
        ReplayDeterminismTest.assertSameDecisions(standalone, cluster, purchases);
        long nodesWithKeys = nodes.stream()
                .filter(n -> {
                    try (RedisClient c = RedisClient.create("127.0.0.1", n.port())) {
                        return c.dbSize() > 0;
                    }
                })
                .count();
        assertThat(nodesWithKeys)
                .as("six goods spread over the cluster's slots")
                .isGreaterThanOrEqualTo(2);
    }
}
