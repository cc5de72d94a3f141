package dev.seckill.stock.decision;

import dev.seckill.contracts.redis.RedisKeys;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;

/** The machine's real Redis, with a key prefix of this test's own that is removed afterwards. */
public final class TestRedis implements AutoCloseable {
    public final UnifiedJedis redis;
    public final RedisKeys keys;

    public TestRedis() {
        String url = System.getenv().getOrDefault("SECKILL_REDIS_URL", "redis://127.0.0.1:6379");
        redis = RedisClient.create(URI.create(url));
        keys = new RedisKeys("test-" + UUID.randomUUID().toString().substring(0, 8) + ":");
    }

    public StockScripts scripts() {
        return new StockScripts(redis, keys, new SimpleMeterRegistry(), 3, Duration.ofMillis(10));
    }

    @Override
    public void close() {
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            var page = redis.scan(
                    cursor, new ScanParams().match(keys.prefix() + "*").count(500));
            page.getResult().forEach(redis::del);
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        redis.close();
    }
}
