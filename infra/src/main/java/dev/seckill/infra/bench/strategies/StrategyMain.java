package dev.seckill.infra.bench.strategies;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.DbPools;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.kit.kafka.ReliableProducers;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * A baseline strategy as a process of its own ({@code java … StrategyMain pessimistic|optimistic|sync PORT}), configured
 * by the shared {@code SECKILL_*} variables (database, Redis, Kafka, prefixes), so that {@code bench strategies} can
 * SIGKILL and restart it as it does the pipeline's services. Its database, sale row and Redis stock are prepared by
 * the benchmark ({@link BaselineSale}).
 */
public final class StrategyMain {
    /** The write-up's bottleneck: a pool this size, as services run it (HikariCP's default is 10). */
    static final int DB_POOL = 20;

    static final int REDIS_POOL = 64;

    private StrategyMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: StrategyMain pessimistic|optimistic|sync PORT");
            System.exit(2);
        }
        Settings s = Settings.fromEnvironment();
        Strategy strategy = open(args[0], s);
        StrategyServer server = new StrategyServer(strategy, Integer.parseInt(args[1]));
        System.out.println(args[0] + " READY on port " + server.port());
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception ignored) {
                // exiting
            }
            stop.countDown();
        }));
        stop.await();
    }

    static Strategy open(String name, Settings s) {
        return switch (name) {
            case "pessimistic" -> new PessimisticLock(pool(s, name, DB_POOL));
            case "optimistic" -> new OptimisticLock(pool(s, name, DB_POOL));
            case "sync" -> sync(s);
            default -> throw new IllegalArgumentException("no strategy " + name);
        };
    }

    /** A pool on the sale's database, which {@link BaselineSale#prepare} made: the pool never creates it. */
    static HikariDataSource pool(Settings s, String name, int size) {
        HikariConfig c = DbPools.config(s, name, size);
        c.setJdbcUrl(JdbcUrls.withoutDatabaseCreation(c.getJdbcUrl()));
        c.setConnectionTimeout(3_000);
        return new HikariDataSource(c);
    }

    private static Strategy sync(Settings s) {
        GenericObjectPoolConfig<Connection> poolConfig = new GenericObjectPoolConfig<>();
        poolConfig.setMaxTotal(REDIS_POOL);
        poolConfig.setMaxIdle(REDIS_POOL);
        UnifiedJedis redis = RedisClient.builder()
                .fromURI(s.redisUrl())
                .poolConfig(poolConfig)
                .build();
        RateLimiter limiter = new RateLimiter(
                s.get(GatewaySettings.LIMIT_GLOBAL_PER_SECOND),
                s.get(GatewaySettings.LIMIT_GOODS_PER_SECOND),
                s.get(GatewaySettings.LIMIT_USER_PER_SECOND),
                s.get(GatewaySettings.LIMIT_USER_BURST),
                s.get(GatewaySettings.LIMIT_TRACKED_KEYS));
        KafkaProducer<String, String> producer = new KafkaProducer<>(
                ReliableProducers.config(
                        s,
                        Map.of(
                                ProducerConfig.LINGER_MS_CONFIG,
                                s.get(GatewaySettings.LINGER_MS),
                                ProducerConfig.COMPRESSION_TYPE_CONFIG,
                                s.get(GatewaySettings.COMPRESSION))),
                new StringSerializer(),
                new StringSerializer());
        SyncOrderWriter writer = new SyncOrderWriter(
                s, ordersTopic(s), s.topicPrefix() + "sync-order-writer", pool(s, "sync-writer", 4));
        return new SyncRedisLua(redis, new SyncKeys(s.redisPrefix()), limiter, producer, ordersTopic(s), writer);
    }

    static String ordersTopic(Settings s) {
        return s.topicPrefix() + "sync.orders";
    }
}
