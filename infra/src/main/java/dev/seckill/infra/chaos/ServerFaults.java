package dev.seckill.infra.chaos;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.infra.harness.Sales;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.stack.KafkaBroker;
import dev.seckill.stack.KafkaCluster;
import dev.seckill.stack.ServerProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Utils;
import redis.clients.jedis.UnifiedJedis;

/**
 * Faults of the servers under the pipeline, injected with the servers' own means (SIGKILL, SHUTDOWN NOSAVE, SIGTERM,
 * DEBUG SLEEP, a row lock) on the scenario's own instances — never the machine's shared ones.
 */
final class ServerFaults {
    /** How long the database stays down. */
    static final int DB_DOWN_SECONDS = 30;

    private ServerFaults() {}

    /**
     * SIGKILL of the broker that leads the sale's commands partition; restarted after 3 s (one broker) or 8 s (a
     * cluster: the sale goes on through the other two meanwhile). Recovery: SIGKILL → the first answer to a request
     * sent after it.
     */
    static ChaosScenario.Fault killBroker() {
        return t -> {
            KafkaCluster kafka = t.servers.kafka();
            KafkaBroker leader = kafka.node(leaderOfSale(t));
            long at = System.nanoTime();
            leader.kill();
            t.pauseFrom(at);
            TimeUnit.SECONDS.sleep(kafka.size() == 1 ? 3 : 8); // the broker stays down this long, whatever happens
            leader.launch().awaitReady();
        };
    }

    /** The node id leading the partition of {@code <prefix>commands} the sale's goods id hashes to. */
    private static int leaderOfSale(ChaosTarget t) throws Exception {
        try (Admin admin = KafkaClients.admin(t.settings)) {
            List<TopicPartitionInfo> parts = admin.describeTopics(List.of(t.topics.commands()))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(t.topics.commands())
                    .partitions();
            byte[] key = Long.toString(t.goods).getBytes(StandardCharsets.UTF_8);
            int partition = Utils.toPositive(Utils.murmur2(key)) % parts.size();
            return parts.get(partition).leader().id();
        }
    }

    /**
     * The scenario's Redis shut down without saving and started empty (every hot key gone: stock, buyers, stored
     * decisions, scripts). Recovery: restart → the sale back in Redis (rebuilt by stock-stream at the next purchase,
     * or by the reconciler's restore).
     */
    static ChaosScenario.Fault restartRedis() {
        return t -> {
            long t0 = System.nanoTime();
            t.servers.redis().stop();
            t.servers.redis().start();
            String sale = new RedisKeys(t.settings.redisPrefix()).sale(t.goods);
            try (UnifiedJedis redis = RedisConnections.open(t.settings)) {
                if (ChaosTarget.await(() -> redis.exists(sale), 120) < 0)
                    throw new IllegalStateException("nobody restored the sale within 120 s");
            }
            t.recovered(t0, (System.nanoTime() - t0) / 1_000_000);
        };
    }

    /**
     * The scenario's database stopped (SIGTERM) for {@link #DB_DOWN_SECONDS} s, then started again. Recovery: start →
     * an order in the database for every SUCCESS the buyers held at that moment.
     */
    static ChaosScenario.Fault stopDb() {
        return t -> {
            long at = System.nanoTime();
            t.servers.db().stop();
            TimeUnit.SECONDS.sleep(DB_DOWN_SECONDS);
            t.servers.db().start();
            t.recovered(at, ordersCatchUp(t));
        };
    }

    /** {@code DEBUG SLEEP 3} on the scenario's Redis, twice, 1–3 s apart. Recovery: the sale's pause from each. */
    static ChaosScenario.Fault slowRedis() {
        return t -> {
            for (int k = 0; k < 2; k++) {
                if (k > 0 && !t.pause(1_000, 3_000)) return;
                Path cli = ServerProcess.requireBinary("redis-cli", "redis-tools");
                t.pauseFrom(System.nanoTime());
                ServerProcess.run(
                        List.of(
                                cli.toString(),
                                "-p",
                                Integer.toString(t.servers.redis().port()),
                                "DEBUG",
                                "SLEEP",
                                "3"),
                        Duration.ofSeconds(30));
            }
        };
    }

    /**
     * A transaction holds the lock of the sale's row in {@code sale} for 8 s, twice (the order-writer's ledger batch
     * updates that row). Recovery: release → an order for every SUCCESS the buyers held at that moment.
     */
    static ChaosScenario.Fault slowDb() {
        return t -> {
            for (int k = 0; k < 2; k++) {
                if (k > 0 && !t.pause(1_000, 3_000)) return;
                long at = System.nanoTime();
                try (Connection c = t.db()) {
                    c.setAutoCommit(false);
                    try (PreparedStatement lock =
                            c.prepareStatement("SELECT goods_id FROM sale WHERE goods_id = ? FOR UPDATE")) {
                        lock.setLong(1, t.goods);
                        lock.executeQuery().close();
                    }
                    TimeUnit.SECONDS.sleep(8); // the lock is held this long: the fault itself
                    c.commit();
                }
                t.recovered(at, ordersCatchUp(t));
            }
        };
    }

    /** Milliseconds until the database holds an order for every SUCCESS answered so far (at most two minutes). */
    static long ordersCatchUp(ChaosTarget t) throws InterruptedException {
        long confirmed = t.load().successes();
        long ms = ChaosTarget.await(() -> liveOrders(t) >= confirmed, 120);
        if (ms < 0)
            throw new IllegalStateException("the orders did not catch up with " + confirmed + " SUCCESS in 120 s");
        return ms;
    }

    private static long liveOrders(ChaosTarget t) {
        try (Connection c = t.db()) {
            return Sales.liveOrders(c, t.goods);
        } catch (SQLException e) {
            return -1; // the server is still starting
        }
    }
}
