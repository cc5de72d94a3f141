package dev.seckill.gateway.limit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The door's rate limits: one global bucket, one per goods and one per user. A request passes only if every bucket
 * has a token; otherwise the answer says which limit it hit and when to retry.
 *
 * <p>The per-key buckets live in concurrent maps with no lock around them: every request of both event loops checks
 * them, and one lock around an LRU map (the first version) made the loops queue behind each other. The maps are kept
 * under {@code maxTrackedKeys} by retiring buckets that have refilled to their burst — exact, since a full bucket
 * answers as a new one would; a request that still holds a retired bucket takes from the map's current one instead.
 * Only when more keys than that are active at once are others retired too: those with a token left (they may burst
 * again); limited keys only when they alone are more than twice the bound (memory first).
 */
public final class RateLimiter {
    /** Hit: which limit, and the seconds to wait (for Retry-After). */
    public record Limited(String scope, long retryAfterSeconds) {}

    private final double globalRate;
    private final double goodsRate;
    private final double userRate;
    private final double userBurst;
    private final int maxTrackedKeys;
    private final TokenBucket global;
    private final ConcurrentHashMap<Long, TokenBucket> perGoods = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, TokenBucket> perUser = new ConcurrentHashMap<>();

    public RateLimiter(double globalRate, double goodsRate, double userRate, double userBurst, int maxTrackedKeys) {
        this.globalRate = globalRate;
        this.goodsRate = goodsRate;
        this.userRate = userRate;
        this.userBurst = userBurst;
        this.maxTrackedKeys = maxTrackedKeys;
        this.global = new TokenBucket(globalRate, Math.max(1, globalRate / 10), System.nanoTime());
    }

    /** Null when the request may pass; the limit it hit otherwise. */
    public Limited check(long goodsId, long userId) {
        long now = System.nanoTime();
        long wait = take(perUser, userId, userRate, userBurst, now);
        if (wait > 0) return limited("user", wait);
        wait = take(perGoods, goodsId, goodsRate, Math.max(1, goodsRate / 10), now);
        if (wait > 0) return limited("goods", wait);
        wait = global.tryTake(now);
        if (wait > 0) return limited("global", wait);
        return null;
    }

    /** How many per-user and per-goods buckets are kept. */
    public long trackedKeys() {
        return perUser.mappingCount() + perGoods.mappingCount();
    }

    private static Limited limited(String scope, long waitNanos) {
        return new Limited(scope, Math.max(1, (long) Math.ceil(waitNanos / 1e9)));
    }

    private long take(ConcurrentHashMap<Long, TokenBucket> map, long key, double rate, double burst, long now) {
        while (true) {
            TokenBucket b = map.get(key);
            if (b == null) {
                b = map.computeIfAbsent(key, k -> new TokenBucket(rate, burst, now));
                if (map.mappingCount() > maxTrackedKeys) prune(map, now);
            }
            long wait = b.tryTake(now);
            if (wait != TokenBucket.RETIRED) return wait;
            map.remove(key, b); // retired by a prune: take from the bucket the map holds (or a new one)
        }
    }

    /**
     * Retires the full buckets; if still over the bound, those with a token; then any, if need be. Every thread that
     * finds the map over its bound sweeps (no thread waits for another), so keys cannot be added faster than swept.
     */
    private void prune(ConcurrentHashMap<Long, TokenBucket> map, long now) {
        long target = maxTrackedKeys * 9L / 10; // some room, so that the next inserts do not prune again
        retire(map, now, Double.MAX_VALUE, target);
        if (map.mappingCount() > target) retire(map, now, 1, target);
        // limited keys alone over twice the bound: memory comes first
        if (map.mappingCount() > 2L * maxTrackedKeys) retire(map, now, Double.NEGATIVE_INFINITY, target);
    }

    /** Retires and removes buckets holding at least {@code minTokens} (capped at each burst) until at most {@code target} remain. */
    private static void retire(ConcurrentHashMap<Long, TokenBucket> map, long now, double minTokens, long target) {
        for (Map.Entry<Long, TokenBucket> e : map.entrySet()) {
            if (minTokens == Double.NEGATIVE_INFINITY && map.mappingCount() <= target) return;
            TokenBucket b = e.getValue();
            if (b.retireIfAtLeast(minTokens, now)) map.remove(e.getKey(), b);
        }
    }

    @Override
    public String toString() {
        return "global " + globalRate + "/s, per goods " + goodsRate + "/s, per user " + userRate + "/s (burst "
                + userBurst + ")";
    }
}
