package dev.seckill.gateway.door;

import dev.seckill.contracts.redis.RedisKeys;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.UnifiedJedis;

/**
 * The gateway's view of each sale's window (and its stock, for the sold-out mark), read from the sale hash and the
 * stock key in Redis off the event loop and kept for a second. A request outside a known window is answered REJECTED at the door ({@code not_started} / {@code ended}),
 * exactly as stock-stream would judge it by acceptedAt. Unknown goods (no sale, or not looked up yet) pass through:
 * only the stream decides {@code no_sale}. OPENED/CLOSED/RESTORED ledger entries drop the cached window at once.
 *
 * <p>Bounded, because goodsIds come from clients before anything else limits them: at most {@code maxGoods} windows
 * are kept (plus one per lookup thread racing the bound), and lookups wait on a bounded queue. A full cache first
 * drops what is stale or has no sale; a lookup that finds no room, or no place in the queue, is simply not made, and
 * the request passes through to the stream, which decides it exactly — only the short-circuit is lost.
 *
 * <p>Two lanes, so that a flood cannot starve real sales: goods known to have a sale (a lookup read one, or the ledger
 * opened, closed or restored it; at most {@code maxGoods} of them) are looked up on a sale lane of their own, every
 * other goodsId (made-up ones included) on the flood lane. A flood of made-up goodsIds fills only the flood lane's
 * queue; the sale goods' windows, and the stock reads their sold-out marks are renewed from ({@link SoldOutMarks}),
 * stay fresh. The sale lane holds at most one lookup per sale goods, so a queue of {@code maxGoods} is never full.
 */
public final class SaleWindows {
    /** {@code readAt}: when the lookup began reading Redis (what it read is at least that recent; its age runs from it). */
    private record Window(Long startAt, Long endAt, boolean closed, Long stock, long readAt) {}

    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final ExecutorService floodLane;
    private final ExecutorService saleLane;
    private final long maxAgeMs;
    private final int maxGoods;
    private final Map<Long, Window> windows = new ConcurrentHashMap<>();
    /**
     * Goods known to have a sale, whose lookups take the sale lane: a lookup read a sale for them, or a ledger entry
     * changed their sale. Kept when their window is dropped (stale, invalidated), so a flood cannot push them back onto
     * the flood lane; dropped when a lookup reads no sale. Never more than {@code maxGoods} (plus racing lookups).
     */
    private final Set<Long> sales = ConcurrentHashMap.newKeySet();
    /** Goods with a lookup queued or running; bounded by the lookup queue, as an entry lives only while its task does. */
    private final Map<Long, Boolean> refreshing = new ConcurrentHashMap<>();
    /** Counts invalidations: a lookup that saw one while it read Redis does not keep what it read. */
    private final AtomicLong invalidations = new AtomicLong();
    /** A sweep that freed nothing is not repeated before entries can have gone stale. */
    private volatile long noSweepBefore;

    /**
     * @param floodLane where goods not known to have a sale are looked up ({@link #lookups}): a flood may fill it
     * @param saleLane where goods known to have a sale are looked up ({@link #saleLookups}), apart from the flood
     */
    public SaleWindows(
            UnifiedJedis redis,
            RedisKeys keys,
            ExecutorService floodLane,
            ExecutorService saleLane,
            long maxAgeMs,
            int maxGoods) {
        if (maxGoods < 1) throw new IllegalArgumentException("maxGoods must be positive, got " + maxGoods);
        this.redis = redis;
        this.keys = keys;
        this.floodLane = floodLane;
        this.saleLane = saleLane;
        this.maxAgeMs = maxAgeMs;
        this.maxGoods = maxGoods;
    }

    /** The lookup threads: {@code threads} daemons and a queue of at most {@code queue} lookups; beyond it, none is made. */
    static ThreadPoolExecutor lookups(int threads, int queue) {
        return lookups("gateway-sale-windows", threads, queue);
    }

    /** The sale lane for a cache of {@code maxGoods} windows: one daemon, room for a lookup of every sale goods. */
    static ThreadPoolExecutor saleLookups(int maxGoods) {
        return lookups("gateway-sale-windows-sales", 1, maxGoods);
    }

    private static ThreadPoolExecutor lookups(String name, int threads, int queue) {
        return new ThreadPoolExecutor(
                threads,
                threads,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queue),
                r -> {
                    Thread t = new Thread(r, name);
                    t.setDaemon(true);
                    return t;
                },
                new ThreadPoolExecutor.AbortPolicy());
    }

    /** "not_started" or "ended" when the goods' known window rules the request out; null when it may go on. */
    String reject(long goodsId, long nowMs) {
        Window w = windows.get(goodsId);
        if (w == null || nowMs - w.readAt() > maxAgeMs) refresh(goodsId);
        if (w == null || w.startAt() == null) return null;
        if (nowMs < w.startAt()) return "not_started";
        if (w.closed() || nowMs >= w.endAt()) return "ended";
        return null;
    }

    /**
     * True when a lookup of the cache's age found no sale for the goods, so the door writes nothing to Redis for its
     * purchases (a flood of made-up goodsIds costs no claim): the stream answers them REJECTED no_sale. Answers from
     * what is cached; never looks up.
     */
    boolean knownWithoutSale(long goodsId, long nowMs) {
        Window w = windows.get(goodsId);
        return w != null && w.startAt() == null && nowMs - w.readAt() <= maxAgeMs;
    }

    /**
     * The goods' stock as the last lookup read it, when that lookup started reading at or after {@code sinceMs} (epoch
     * ms, this class's clock: {@link System#currentTimeMillis()}); null when there is no such read, the goods has no
     * stock key, or the stock could not be read. The door's sold-out mark is renewed from it ({@link SoldOutMarks}).
     */
    Long stockReadSince(long goodsId, long sinceMs) {
        Window w = windows.get(goodsId);
        if (w == null || w.readAt() < sinceMs) return null;
        return w.stock();
    }

    /**
     * Drops a goods' window, as its sale changed (the ledger says so: the goods has a sale, its lookups take the sale
     * lane); a lookup that read Redis before this call does not put its old window back.
     */
    public void invalidate(long goodsId) {
        lane(goodsId, true);
        invalidations.incrementAndGet(); // before the remove: a lookup that checks after the remove sees the change
        windows.remove(goodsId);
    }

    /** Windows held now (for the gauge and tests). */
    public int cachedGoods() {
        return windows.size();
    }

    /** Lookups queued or running now (for tests). */
    int pendingLookups() {
        return refreshing.size();
    }

    private void refresh(long goodsId) {
        if (refreshing.putIfAbsent(goodsId, Boolean.TRUE) != null) return;
        try {
            (sales.contains(goodsId) ? saleLane : floodLane).execute(() -> {
                try {
                    long seen = invalidations.get();
                    long readAt = System.currentTimeMillis();
                    List<String> f = redis.hmget(keys.sale(goodsId), "startAt", "endAt", "status");
                    Long start = f.get(0) == null ? null : Long.parseLong(f.get(0));
                    Long end = f.get(1) == null ? null : Long.parseLong(f.get(1));
                    Long stock = stock(goodsId);
                    if (invalidations.get() == seen) lane(goodsId, start != null);
                    long now = System.currentTimeMillis();
                    if (windows.containsKey(goodsId) || roomFor(now)) {
                        windows.put(goodsId, new Window(start, end, "closed".equals(f.get(2)), stock, readAt));
                        // a sale opened or closed while we read: what we read may be the old window (rare; looked up
                        // again)
                        if (invalidations.get() != seen) windows.remove(goodsId);
                    }
                } catch (RuntimeException e) {
                    windows.remove(goodsId); // Redis unreachable: no short-circuit, the stream decides
                } finally {
                    refreshing.remove(goodsId);
                }
            });
        } catch (RejectedExecutionException e) {
            refreshing.remove(goodsId); // queue full: no lookup now, the request passes through
        }
    }

    /** Records whether a goods has a sale (its lookups then take the sale lane), within the bound of the cache. */
    private void lane(long goodsId, boolean sale) {
        if (!sale) sales.remove(goodsId);
        else if (sales.size() < maxGoods) sales.add(goodsId);
    }

    /** The stock key's value, or null when it is missing or cannot be read: the window is kept either way. */
    private Long stock(long goodsId) {
        try {
            String text = redis.get(keys.stock(goodsId));
            return text == null ? null : Long.parseLong(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether one more window fits; when the cache is full, first drops the windows that are stale (they would be
     * looked up again anyway) or have no sale (the flood of made-up goodsIds), which changes no answer.
     */
    private boolean roomFor(long now) {
        if (windows.size() < maxGoods) return true;
        if (now < noSweepBefore) return false;
        windows.values().removeIf(w -> w.startAt() == null || now - w.readAt() > maxAgeMs);
        if (windows.size() < maxGoods) return true;
        noSweepBefore = now + Math.max(1, maxAgeMs);
        return false;
    }
}
