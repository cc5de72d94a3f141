package dev.seckill.gateway.door;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.redis.RedisConnections;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/** The window cache over the real Redis: a client sending a million made-up goodsIds cannot grow it without bound. */
class SaleWindowsTest {
    static final int MAX_GOODS = 10_000;
    static final int QUEUE = 100;
    static final int THREADS = 2;

    @Test
    void aMillionDistinctGoodsIdsKeepTheCacheAndTheLookupQueueBounded_andKnownWindowsStillAnswer() throws Exception {
        String prefix = "windows-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        RedisKeys keys = new RedisKeys(prefix);
        Settings settings = Settings.with(Map.of(Settings.REDIS_PREFIX, prefix));
        ThreadPoolExecutor pool = SaleWindows.lookups(THREADS, QUEUE);
        ThreadPoolExecutor sales = SaleWindows.saleLookups(MAX_GOODS);
        try (UnifiedJedis redis = RedisConnections.open(settings)) {
            long now = System.currentTimeMillis();
            long ended = 5_000_000_001L;
            long later = 5_000_000_002L;
            redis.hset(
                    keys.sale(ended),
                    Map.of(
                            "startAt",
                            Long.toString(now - 7_200_000),
                            "endAt",
                            Long.toString(now - 3_600_000),
                            "status",
                            "open"));
            redis.hset(
                    keys.sale(later),
                    Map.of(
                            "startAt",
                            Long.toString(now + 3_600_000),
                            "endAt",
                            Long.toString(now + 7_200_000),
                            "status",
                            "open"));
            redis.expire(keys.sale(ended), 120);
            redis.expire(keys.sale(later), 120);
            SaleWindows windows = new SaleWindows(redis, keys, pool, sales, 1000, MAX_GOODS);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> "ended".equals(windows.reject(ended, System.currentTimeMillis())));

            int maxCached = 0;
            int maxPending = 0;
            int maxQueued = 0;
            for (long g = 1; g <= 1_000_000; g++) {
                assertThat(windows.reject(g, System.currentTimeMillis()))
                        .as("no sale: passes through")
                        .isNull();
                if (g % 1000 == 0) {
                    maxCached = Math.max(maxCached, windows.cachedGoods());
                    maxPending = Math.max(maxPending, windows.pendingLookups());
                    maxQueued = Math.max(maxQueued, pool.getQueue().size());
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> pool.getQueue().isEmpty() && pool.getActiveCount() == 0);
            maxCached = Math.max(maxCached, windows.cachedGoods());
            assertThat(maxCached)
                    .as("windows held (the sale lane's thread races the bound too)")
                    .isLessThanOrEqualTo(MAX_GOODS + THREADS + 1);
            assertThat(maxQueued).as("lookups queued").isLessThanOrEqualTo(QUEUE);
            assertThat(maxPending)
                    .as("lookups pending (queued + running + callers racing)")
                    .isLessThanOrEqualTo(QUEUE + THREADS + 1);
            assertThat(windows.pendingLookups()).isZero();

            // after the flood the door still judges real sales exactly
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> "ended".equals(windows.reject(ended, System.currentTimeMillis())));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> "not_started".equals(windows.reject(later, System.currentTimeMillis())));
        } finally {
            pool.shutdownNow();
            sales.shutdownNow();
        }
    }

    @Test
    void aCacheFullOfLiveWindowsPassesNewGoodsThrough_untilTheirWindowsGoStale() throws Exception {
        String prefix = "windows-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        RedisKeys keys = new RedisKeys(prefix);
        ThreadPoolExecutor pool = SaleWindows.lookups(1, 10);
        ThreadPoolExecutor sales = SaleWindows.saleLookups(2);
        try (UnifiedJedis redis = RedisConnections.open(Settings.with(Map.of(Settings.REDIS_PREFIX, prefix)))) {
            long now = System.currentTimeMillis();
            for (long g = 1; g <= 3; g++) {
                redis.hset(
                        keys.sale(g),
                        Map.of(
                                "startAt",
                                Long.toString(now + 3_600_000),
                                "endAt",
                                Long.toString(now + 7_200_000),
                                "status",
                                "open"));
                redis.expire(keys.sale(g), 120);
            }
            // windows are fresh for 5 s: long enough that goods 1 and 2 are still fresh when goods 3 is looked up on a
            // busy machine
            SaleWindows windows = new SaleWindows(redis, keys, pool, sales, 5000, 2);
            for (long g = 1; g <= 2; g++) {
                long goods = g;
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> "not_started".equals(windows.reject(goods, System.currentTimeMillis())));
            }
            windows.reject(3, System.currentTimeMillis());
            await().atMost(Duration.ofSeconds(10)).until(() -> windows.pendingLookups() == 0);
            assertThat(windows.cachedGoods()).isEqualTo(2);
            assertThat(windows.reject(3, System.currentTimeMillis()))
                    .as("no room: passes through, the stream decides")
                    .isNull();
            // goods 1 and 2 are not asked for again: once stale they make room for goods 3
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "not_started".equals(windows.reject(3, System.currentTimeMillis())));
            assertThat(windows.cachedGoods()).isLessThanOrEqualTo(2);
        } finally {
            pool.shutdownNow();
            sales.shutdownNow();
        }
    }

    @Test
    void aFloodThatFillsTheLookupQueue_doesNotStopTheWindowOfARealSaleBeingRefreshed() throws Exception {
        String prefix = "windows-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        RedisKeys keys = new RedisKeys(prefix);
        Settings settings = Settings.with(Map.of(Settings.REDIS_PREFIX, prefix));
        long real = 5_000_000_010L;
        ThreadPoolExecutor flood = SaleWindows.lookups(1, 5);
        ThreadPoolExecutor sales = SaleWindows.saleLookups(100);
        CountDownLatch stuck = new CountDownLatch(1);
        try (UnifiedJedis redis = RedisConnections.open(settings)) {
            long now = System.currentTimeMillis();
            redis.hset(
                    keys.sale(real),
                    Map.of(
                            "startAt",
                            Long.toString(now - 3_600_000),
                            "endAt",
                            Long.toString(now + 3_600_000),
                            "status",
                            "open"));
            redis.set(keys.stock(real), "5");
            redis.expire(keys.sale(real), 120);
            redis.expire(keys.stock(real), 120);
            // windows go stale after 50 ms: the door asks for a fresh read of the real goods all along
            SaleWindows windows = new SaleWindows(redis, keys, flood, sales, 50, 100);

            // Given the real goods' window, with its sale and stock, cached
            long given = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                windows.reject(real, System.currentTimeMillis());
                return Long.valueOf(5).equals(windows.stockReadSince(real, given));
            });

            // When the lookup thread is stuck (Redis slow, say) and its queue is full of made-up goods' lookups
            flood.execute(() -> {
                try {
                    stuck.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            for (long made = 1; made <= 1_000; made++) {
                assertThat(windows.reject(made, System.currentTimeMillis())).isNull();
            }
            assertThat(flood.getQueue().remainingCapacity())
                    .as("the flood fills the lookup queue")
                    .isZero();
            redis.set(keys.stock(real), "0");
            long changed = System.currentTimeMillis();

            // Then the real goods' window is still refreshed: a read made after the change sees it (the stock the
            // door's sold-out mark is renewed from)
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                assertThat(windows.reject(real, System.currentTimeMillis()))
                        .as("the sale is open")
                        .isNull();
                return Long.valueOf(0).equals(windows.stockReadSince(real, changed));
            });
            assertThat(flood.getQueue().remainingCapacity())
                    .as("the flood is still queued")
                    .isZero();

            // and when the ledger drops its window (its sale opened, closed or restored), it is looked up again apart
            // from the flood too
            windows.invalidate(real);
            redis.set(keys.stock(real), "2");
            long restored = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                windows.reject(real, System.currentTimeMillis());
                return Long.valueOf(2).equals(windows.stockReadSince(real, restored));
            });
        } finally {
            stuck.countDown();
            flood.shutdownNow();
            sales.shutdownNow();
            try (UnifiedJedis redis = RedisConnections.open(settings)) {
                redis.del(keys.sale(real), keys.stock(real));
            }
        }
    }
}
