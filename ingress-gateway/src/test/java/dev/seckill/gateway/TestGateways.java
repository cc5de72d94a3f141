package dev.seckill.gateway;

import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.TestTopics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;

/** Gateways as the tests start them, and the sales their purchases need. */
final class TestGateways {
    private TestGateways() {}

    private static final Set<String> OPENED = ConcurrentHashMap.newKeySet();

    /**
     * A started gateway whose status store holds every decided purchase (its indexer said so), so that what a test
     * asks of it is answered, not 503 "cannot tell yet".
     */
    static GatewayApp started(Settings settings, MeterRegistry metrics) {
        GatewayApp g = new GatewayApp(settings, metrics).start();
        await().atMost(Duration.ofSeconds(30)).until(g::statusComplete);
        return g;
    }

    /**
     * A test namespace's settings for a gateway with auth off and a generous per-buyer limit, on ephemeral ports:
     * topics and Redis keys under {@code <word>-<random>}.
     */
    static Settings authOff(String word) {
        return namespaced(word, Map.of("gateway.auth.enabled", "false", "gateway.limit.user.per.second", "1000"));
    }

    /** A gateway's settings on ephemeral ports, topics and Redis keys under {@code <word>-<random>}, and {@code more}. */
    static Settings namespaced(String word, Map<String, String> more) {
        String prefix = word + "-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        Map<String, String> all = new HashMap<>(more);
        all.put(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap());
        all.put(Settings.TOPIC_PREFIX, prefix);
        all.put(Settings.REDIS_PREFIX, prefix.replace('.', ':'));
        all.put("gateway.port", "0");
        all.put("gateway.metrics.port", "0");
        return Settings.with(all);
    }

    static GatewayApp started(Settings settings) {
        return started(settings, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    /**
     * Gives the goods a sale window in Redis (started a minute ago, open for an hour, no stock key) once per run: the
     * door claims a requestId only for goods that may have a sale, and keeps nothing for goods it knows have none.
     */
    static void openSale(Settings settings, long goodsId) {
        RedisKeys keys = new RedisKeys(settings.redisPrefix());
        if (!OPENED.add(keys.prefix() + goodsId)) return;
        long now = System.currentTimeMillis();
        try (RedisClient redis = RedisClient.create(URI.create(settings.redisUrl()))) {
            redis.hset(
                    keys.sale(goodsId),
                    Map.of("startAt", Long.toString(now - 60_000), "endAt", Long.toString(now + 3_600_000)));
            redis.pexpire(keys.sale(goodsId), 3_600_000);
        }
    }

    /** Removes a test's namespace: its topics and its Redis keys (the suite's leftover check finds any left). */
    static void removeNamespace(Settings settings) {
        TestTopics.deleteWithPrefix(settings.kafkaBootstrap(), settings.topicPrefix());
        removeRedisKeys(settings);
    }

    /** Removes a test's Redis keys (those under its prefix). */
    static void removeRedisKeys(Settings settings) {
        try (RedisClient redis = RedisClient.create(URI.create(settings.redisUrl()))) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                var page = redis.scan(
                        cursor,
                        new ScanParams().match(settings.redisPrefix() + "*").count(1000));
                if (!page.getResult().isEmpty()) redis.unlink(page.getResult().toArray(String[]::new));
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
    }
}
