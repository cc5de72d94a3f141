package dev.seckill.infra.chaos;

import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaCluster;
import dev.seckill.stack.MariaDbServer;
import dev.seckill.stack.RedisServer;
import dev.seckill.stack.ServerProcess;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The servers a scenario may break, started for it on spare loopback ports: a fault never stops, slows or kills the
 * machine's shared Redis, MariaDB or broker. A scenario that breaks none of them runs on the shared ones (namespaced).
 * A Kafka cluster given by the run ({@code --brokers 3}) is used as it is and left running.
 */
final class ChaosServers implements AutoCloseable {
    /** A server a scenario owns for its length. */
    enum Kind {
        REDIS,
        DB,
        BROKER
    }

    private final RedisServer redis;
    private final MariaDbServer db;
    private final KafkaCluster kafka;
    private final boolean ownKafka;

    private ChaosServers(RedisServer redis, MariaDbServer db, KafkaCluster kafka, boolean ownKafka) {
        this.redis = redis;
        this.db = db;
        this.kafka = kafka;
        this.ownKafka = ownKafka;
    }

    /** Starts what {@code kinds} asks for; {@code cluster} (may be null) is the run's Kafka cluster. */
    static ChaosServers start(Set<Kind> kinds, KafkaCluster cluster, PrintStream out) {
        RedisServer redis = null;
        MariaDbServer db = null;
        KafkaCluster kafka = cluster;
        boolean own = false;
        try {
            if (kinds.contains(Kind.REDIS)) {
                // DEBUG SLEEP is how a slow Redis is made: allowed from loopback on this server only
                redis = new RedisServer(
                                ServerProcess.freePort(),
                                ServerProcess.tempDir("seckill-chaos-redis-"),
                                List.of("--enable-debug-command", "local"))
                        .start();
                out.printf("  own redis-server on %s%n", redis.url());
            }
            if (kinds.contains(Kind.DB)) {
                db = MariaDbServer.onFreePort().start();
                out.printf("  own mariadbd on 127.0.0.1:%d%n", db.port());
            }
            if (kinds.contains(Kind.BROKER) && kafka == null) {
                kafka = KafkaCluster.onFreePorts(1).start();
                own = true;
                out.printf("  own Kafka broker at %s%n", kafka.bootstrap());
            }
            return new ChaosServers(redis, db, kafka, own);
        } catch (Exception | Error e) {
            if (redis != null) redis.stop();
            if (db != null) db.stop();
            if (own) kafka.close();
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
        }
    }

    /** {@code base} pointed at this scenario's own servers. */
    Settings apply(Settings base) {
        Map<String, String> to = new HashMap<>();
        if (redis != null) to.put(Settings.REDIS_URL, redis.url());
        if (db != null) to.put(Settings.DB_URL, db.jdbcUrl("seckill"));
        if (kafka != null) to.put(Settings.KAFKA_BOOTSTRAP, kafka.bootstrap());
        return base.and(to);
    }

    RedisServer redis() {
        return require(redis, "redis");
    }

    MariaDbServer db() {
        return require(db, "a database server");
    }

    KafkaCluster kafka() {
        return require(kafka, "a Kafka cluster");
    }

    private static <T> T require(T server, String what) {
        if (server == null) throw new IllegalStateException("this scenario did not ask for " + what + " of its own");
        return server;
    }

    @Override
    public void close() {
        if (redis != null) redis.stop();
        if (db != null) db.stop();
        if (ownKafka) kafka.close();
    }
}
