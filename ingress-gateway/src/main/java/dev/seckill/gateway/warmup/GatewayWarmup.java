package dev.seckill.gateway.warmup;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.GatewayApp;
import dev.seckill.gateway.GatewayWiring;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.door.RecentIds;
import dev.seckill.gateway.door.SaleWindows;
import dev.seckill.gateway.http.InFlightRequests;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.limit.ReadLimiter;
import dev.seckill.gateway.limit.RefusalBudget;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.gateway.status.PurchaseStatusStore;
import dev.seckill.gateway.status.StatusStack;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.observability.MetricsServer;
import dev.seckill.kit.warmup.JitSettle;
import io.vertx.core.http.HttpServer;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * Warms the gateway's whole purchase path before it reports ready, without touching any sale: a second door of the
 * same code (the same Vert.x event loops, the same Kafka producer, Redis client and status pipeline) listens on a
 * loopback port of its own and takes {@code n} purchases over HTTP — tokens, JSON, validation, rate limits, the
 * window lookup, the claim of a client requestId, the Kafka send and its ack, the GET. What it writes is its own:
 * <ul>
 *   <li>commands go to {@code <prefix>warmup-<run>.commands}, a topic nobody consumes, and made-up outcomes to the
 *       warm-up's outcome topics, which its own outcome view and status indexer follow ({@link WarmupReadSide}); all
 *       deleted afterwards; the real commands topic is only looked up (the producer's metadata and connection);</li>
 *   <li>Redis keys under {@code <redisPrefix>warmup:<run>:} (status claims and indexed outcomes, deleted by name afterwards, and expiring
 *       in 10 minutes anyway): no client value can name one — goods keys are {@code <redisPrefix><kind>:{id}} with a
 *       numeric id, status keys {@code <redisPrefix>purchase:<requestId>};</li>
 *   <li>tokens signed with a key of this run only, and counters in a registry of their own (the real metrics do not
 *       count warm-up requests).</li>
 * </ul>
 */
public final class GatewayWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayWarmup.class);
    /** A warm-up that cannot finish in this time ends there: readiness must not hang on it. */
    private static final Duration LIMIT = Duration.ofMinutes(2);

    private static final int CONNECTIONS = 200;
    /** The warm-up's topics are created and deleted on every start: two partitions each keep that quick. */
    private static final int PARTITIONS = 2;

    private final GatewayApp app;
    /** The real door's wiring: the warm-up's door shares its event loops, producer, clock, waiters and limits. */
    private final GatewayWiring real;

    private final Settings settings;
    private final UnifiedJedis redis;
    private final ExecutorService windowLookups;
    private final StatusStack status;
    private final String run = HexFormat.of().toHexDigits(new SecureRandom().nextInt());
    private final Topics topics;
    private final RedisKeys keys;

    public GatewayWarmup(
            GatewayApp app,
            GatewayWiring real,
            Settings settings,
            UnifiedJedis redis,
            ExecutorService windowLookups,
            StatusStack status) {
        this.app = app;
        this.real = real;
        this.settings = settings;
        this.redis = redis;
        this.windowLookups = windowLookups;
        this.status = status;
        this.topics = new Topics(settings.topicPrefix() + "warmup-" + run + ".");
        this.keys = new RedisKeys(settings.redisPrefix() + "warmup:" + run + ":");
    }

    /** Sends {@code n} purchases through the warm-up door, cleans up, waits for the JIT to settle; says what it did. */
    public String run(int n) throws Exception {
        long t0 = System.nanoTime();
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        Jwt jwt = new Jwt(HexFormat.of().formatHex(secret), real.clock());
        TopicProvisioner.ensure(settings, topics, PARTITIONS);
        SaleWindows windows = new SaleWindows(redis, keys, windowLookups, windowLookups, 1000, 10_000); // no flood here
        Duration tenMinutes = Duration.ofMinutes(10);
        PurchaseStatusStore store = new PurchaseStatusStore(
                status.lanes(),
                keys,
                new PurchaseStatusStore.Retention(tenMinutes, tenMinutes, tenMinutes),
                real.clock());
        WarmupReadSide readSide = new WarmupReadSide(settings, topics, store, windows, status);
        GatewayWiring door = new GatewayWiring(
                real.vertx(),
                real.producer(),
                real.clock(),
                real.waiters(),
                real.accepting(),
                real.config(),
                topics,
                MetricsServer.scratchRegistry(),
                jwt,
                new RateLimiter(1e9, 1e9, 1e9, 1e9, 100_000),
                new ReadLimiter(1e9, 1e9, 100_000),
                new RefusalBudget(1e9, 1e9, 100_000),
                new RecentIds(100_000),
                windows,
                store,
                new GeneratedIds(secret),
                readSide.view(),
                new InFlightRequests());
        List<HttpServer> servers = List.of();
        WarmupLoad load = null;
        try {
            real.producer().partitionsFor(real.topics().commands()); // the real topic's metadata, nothing sent to it
            readSide.feed(real.producer(), "wo-" + run + "-", n / 2);
            servers = app.listen(door.routes(), 0);
            load = new WarmupLoad(real.vertx(), servers.get(0).actualPort(), jwt, "wu-" + run + "-", CONNECTIONS);
            load.run(n, LIMIT);
        } finally {
            for (HttpServer s : servers)
                s.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            readSide.close();
            String last = drainStatusWrites(store);
            if (last != null) deleteStatus(List.of(last));
            if (load != null) deleteStatus(load.claimedIds());
            deleteStatus(readSide.ids());
            deleteBuyerLists(Math.max(WarmupLoad.BUYERS, n / 2 + 1));
            status.redis().unlink(keys.statusIndex(), keys.statusReady(), keys.statusLost());
            deleteTopics(readSide.group());
        }
        long loadMs = (System.nanoTime() - t0) / 1_000_000;
        JitSettle.await(Duration.ofSeconds(15));
        return String.format(
                "%,d warm-up requests in %,d ms (answers %s), JIT settled after %,d ms",
                n, loadMs, load.byStatus(), (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * One more status write through the shared pipeline, waited for: the pipeline is first in, first out, so every
     * warm-up write queued before it is in Redis and can be deleted. Returns its requestId (null if Redis did not answer).
     */
    private String drainStatusWrites(PurchaseStatusStore store) {
        String id = "wo-" + run + "-last";
        Instant now = Instant.now();
        try {
            store.decided(Outcome.of(id, 1, 1, 1, OutcomeKind.SOLD_OUT, null, 0, now, now, 0, 0))
                    .get(10, TimeUnit.SECONDS);
            return id;
        } catch (Exception e) {
            LOG.warn("warm-up status writes not confirmed ({}); they expire in 10 minutes", e.toString());
            return null;
        }
    }

    private void deleteStatus(List<String> ids) {
        for (int from = 0; from < ids.size(); from += 1000) {
            String[] page = ids.subList(from, Math.min(ids.size(), from + 1000)).stream()
                    .map(keys::purchaseStatus)
                    .toArray(String[]::new);
            status.redis().unlink(page);
        }
    }

    /** The buyers' lists of the warm-up's goods (one slot per goods: deleted a page of buyers at a time). */
    private void deleteBuyerLists(int buyers) {
        for (long goods = 1; goods <= WarmupLoad.GOODS; goods++) {
            for (int from = 1; from <= buyers; from += 1000) {
                List<String> page = new ArrayList<>();
                for (int u = from; u < Math.min(buyers + 1, from + 1000); u++) page.add(keys.buyerPurchases(goods, u));
                status.redis().unlink(page.toArray(String[]::new));
            }
        }
    }

    /** Deletes the warm-up's topics (all under its prefix) and its indexer's consumer group. */
    private void deleteTopics(String group) {
        try (Admin admin = admin()) {
            admin.deleteTopics(topics.all()).all().get(60, TimeUnit.SECONDS);
            admin.deleteConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("warm-up topics under {} or group {} not all deleted: {}", topics.prefix(), group, e.getMessage());
        }
    }

    private Admin admin() {
        return KafkaClients.admin(settings);
    }
}
