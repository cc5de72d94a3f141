package dev.seckill.gateway;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.observability.MetricsServer;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.contracts.warmup.JitSettle;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.gateway.status.PurchaseStatusStore;
import dev.seckill.gateway.status.RedisBatcher;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * Warms the gateway's whole purchase path before it reports ready, without touching any sale: a second door of the
 * same code (the same Vert.x event loops, the same Kafka producer, Redis client and status pipeline) listens on a
 * loopback port of its own and takes {@code n} purchases over HTTP — tokens, JSON, validation, rate limits, the
 * window lookup, the claim of a client requestId, the Kafka send and its ack, the GET. What it writes is its own:
 * <ul>
 *   <li>commands go to {@code <prefix>warmup-<run>.commands}, a topic nobody consumes, deleted afterwards; the real
 *       commands topic is only looked up (the producer's metadata and connection);</li>
 *   <li>Redis keys under {@code <redisPrefix>warmup:<run>:} (status claims, deleted by name afterwards, and expiring
 *       in 10 minutes anyway): no client value can name one — goods keys are {@code <redisPrefix><kind>:{id}} with a
 *       numeric id, status keys {@code <redisPrefix>purchase:<requestId>};</li>
 *   <li>tokens signed with a key of this run only, and counters in a registry of their own (the real metrics do not
 *       count warm-up requests).</li>
 * </ul>
 */
final class GatewayWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayWarmup.class);
    /** A warm-up that cannot finish in this time ends there: readiness must not hang on it. */
    private static final Duration LIMIT = Duration.ofMinutes(2);
    private static final int CONNECTIONS = 64;

    /** What the warm-up shares with the real door. */
    record Shared(Settings settings, Vertx vertx, KafkaProducer<String, byte[]> producer, Topics topics, UnifiedJedis redis,
                  ExecutorService windowLookups, RedisBatcher statusRedis, Clock clock) {}

    private final GatewayApp app;
    private final Shared shared;
    private final String run = HexFormat.of().toHexDigits(new SecureRandom().nextInt());
    private final Topics topics;
    private final RedisKeys keys;

    GatewayWarmup(GatewayApp app, Shared shared) {
        this.app = app;
        this.shared = shared;
        this.topics = new Topics(shared.settings().topicPrefix() + "warmup-" + run + ".");
        this.keys = new RedisKeys(shared.settings().redisPrefix() + "warmup:" + run + ":");
    }

    Topics topics() { return topics; }

    RedisKeys keys() { return keys; }

    /** Sends {@code n} purchases through the warm-up door, cleans up, waits for the JIT to settle; says what it did. */
    String run(int n) throws Exception {
        long t0 = System.nanoTime();
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        Jwt jwt = new Jwt(HexFormat.of().formatHex(secret), shared.clock());
        GatewayApp.Door door = new GatewayApp.Door(topics, MetricsServer.newRegistry(), jwt,
                new RateLimiter(1e9, 1e9, 1e9, 1e9, 100_000), new RecentIds(100_000),
                new SaleWindows(shared.redis(), keys, shared.windowLookups(), 1000, 10_000),
                new PurchaseStatusStore(shared.statusRedis(), keys, Duration.ofMinutes(10)), new GeneratedIds(secret));
        createTopic();
        List<HttpServer> servers = List.of();
        WarmupLoad load = null;
        try {
            shared.producer().partitionsFor(shared.topics().commands()); // the real topic's metadata, nothing sent to it
            servers = app.listen(app.door(door), 0);
            load = new WarmupLoad(shared.vertx(), servers.get(0).actualPort(), jwt, "wu-" + run + "-", CONNECTIONS);
            load.run(n, LIMIT);
        } finally {
            for (HttpServer s : servers) s.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            if (load != null) deleteClaims(load.claimedIds());
            deleteTopic();
        }
        long loadMs = (System.nanoTime() - t0) / 1_000_000;
        JitSettle.await(Duration.ofSeconds(15));
        return String.format("%,d warm-up requests in %,d ms (answers %s), JIT settled after %,d ms", n, loadMs, load.byStatus(),
                (System.nanoTime() - t0) / 1_000_000);
    }

    private void deleteClaims(List<String> ids) {
        for (int from = 0; from < ids.size(); from += 1000) {
            String[] page = ids.subList(from, Math.min(ids.size(), from + 1000)).stream().map(keys::purchaseStatus).toArray(String[]::new);
            shared.redis().unlink(page);
        }
    }

    private void createTopic() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topics.commands(), 12, (short) 1).configs(Map.of("retention.ms", "600000"))))
                    .all().get(60, TimeUnit.SECONDS);
        }
    }

    private void deleteTopic() {
        try (Admin admin = admin()) {
            admin.deleteTopics(List.of(topics.commands())).all().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("warm-up topic {} not deleted: {}", topics.commands(), e.getMessage());
        }
    }

    private Admin admin() { return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, shared.settings().kafkaBootstrap())); }
}
