package dev.seckill.infra.chaos;

import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaCluster;
import dev.seckill.stack.MariaDbServer;
import dev.seckill.stack.RedisServer;
import dev.seckill.stack.ServerProcess;
import java.io.IOException;
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
        /** With REDIS: a replica of it ({@code --replicaof}) over a link that can be stalled, both behind a proxy. */
        REDIS_REPLICA,
        DB,
        BROKER
    }

    /**
     * A primary's replica, the link it replicates over (a proxy that can stall: the replica then lags) and the proxy
     * the services reach Redis through ({@code SECKILL_REDIS_URL}), the address a failover moves.
     */
    record Failover(RedisServer replica, RedisProxy link, RedisProxy front) {}

    private final RedisServer redis;
    private Failover failover;
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
        Failover failover = null;
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
            if (kinds.contains(Kind.REDIS_REPLICA)) {
                failover = replicate(redis);
                out.printf(
                        "  its replica on 127.0.0.1:%d (replicating through %d), the services through %s%n",
                        failover.replica().port(),
                        failover.link().port(),
                        failover.front().url());
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
            ChaosServers servers = new ChaosServers(redis, db, kafka, own);
            servers.failover = failover;
            return servers;
        } catch (Exception | Error e) {
            if (failover != null) close(failover);
            if (redis != null) redis.stop();
            if (db != null) db.stop();
            if (own) kafka.close();
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
        }
    }

    /** {@code base} pointed at this scenario's own servers. */
    Settings apply(Settings base) {
        Map<String, String> to = new HashMap<>();
        if (redis != null)
            to.put(Settings.REDIS_URL, failover != null ? failover.front().url() : redis.url());
        if (db != null) to.put(Settings.DB_URL, db.jdbcUrl("seckill"));
        if (kafka != null) to.put(Settings.KAFKA_BOOTSTRAP, kafka.bootstrap());
        return base.and(to);
    }

    RedisServer redis() {
        return require(redis, "redis");
    }

    Failover failover() {
        return require(failover, "a Redis replica");
    }

    /** A replica of {@code primary}, in sync, and the two proxies; the services' one points at the primary. */
    private static Failover replicate(RedisServer primary) throws IOException, InterruptedException {
        RedisProxy link = new RedisProxy(primary.port());
        RedisProxy front = new RedisProxy(primary.port());
        RedisServer replica = new RedisServer(
                ServerProcess.freePort(),
                ServerProcess.tempDir("seckill-chaos-replica-"),
                List.of("--enable-debug-command", "local", "--replicaof", "127.0.0.1", Integer.toString(link.port())));
        Failover f = new Failover(replica, link, front);
        try {
            replica.start();
            if (ChaosTarget.await(
                            () -> RedisFailover.info(replica.port(), "master_link_status")
                                    .equals("up"),
                            30)
                    < 0) throw new IllegalStateException("the replica did not sync with its primary in 30 s");
            return f;
        } catch (RuntimeException | InterruptedException e) {
            close(f);
            throw e;
        }
    }

    private static void close(Failover f) {
        f.front().close();
        f.link().close();
        f.replica().stop();
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
        if (failover != null) close(failover);
        if (redis != null) redis.stop();
        if (db != null) db.stop();
        if (ownKafka) kafka.close();
    }
}
