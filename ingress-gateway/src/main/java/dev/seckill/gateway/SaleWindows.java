package dev.seckill.gateway;

import dev.seckill.contracts.redis.RedisKeys;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import redis.clients.jedis.UnifiedJedis;

/**
 * The gateway's view of each sale's window, read from the sale hash in Redis off the event loop and kept for a
 * second. A request outside a known window is answered REJECTED at the door ({@code not_started} / {@code ended}),
 * exactly as stock-stream would judge it by acceptedAt. Unknown goods (no sale, or not looked up yet) pass through:
 * only the stream decides {@code no_sale}. OPENED/CLOSED/RESTORED ledger entries drop the cached window at once.
 */
final class SaleWindows {
    private record Window(Long startAt, Long endAt, boolean closed, long fetchedAt) {}

    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final ExecutorService refresher;
    private final long maxAgeMs;
    private final Map<Long, Window> windows = new ConcurrentHashMap<>();
    private final Map<Long, Boolean> refreshing = new ConcurrentHashMap<>();

    SaleWindows(UnifiedJedis redis, RedisKeys keys, ExecutorService refresher, long maxAgeMs) {
        this.redis = redis;
        this.keys = keys;
        this.refresher = refresher;
        this.maxAgeMs = maxAgeMs;
    }

    /** "not_started" or "ended" when the goods' known window rules the request out; null when it may go on. */
    String reject(long goodsId, long nowMs) {
        Window w = windows.get(goodsId);
        if (w == null || nowMs - w.fetchedAt() > maxAgeMs) refresh(goodsId);
        if (w == null || w.startAt() == null) return null;
        if (nowMs < w.startAt()) return "not_started";
        if (w.closed() || nowMs >= w.endAt()) return "ended";
        return null;
    }

    void invalidate(long goodsId) { windows.remove(goodsId); }

    private void refresh(long goodsId) {
        if (refreshing.putIfAbsent(goodsId, Boolean.TRUE) != null) return;
        try {
            refresher.execute(() -> {
                try {
                    List<String> f = redis.hmget(keys.sale(goodsId), "startAt", "endAt", "status");
                    Long start = f.get(0) == null ? null : Long.parseLong(f.get(0));
                    Long end = f.get(1) == null ? null : Long.parseLong(f.get(1));
                    windows.put(goodsId, new Window(start, end, "closed".equals(f.get(2)), System.currentTimeMillis()));
                } catch (RuntimeException e) {
                    windows.remove(goodsId); // Redis unreachable: no short-circuit, the stream decides
                } finally {
                    refreshing.remove(goodsId);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            refreshing.remove(goodsId);
        }
    }
}
