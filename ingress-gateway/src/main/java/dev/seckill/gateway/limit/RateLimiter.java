package dev.seckill.gateway.limit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The door's rate limits: one global bucket, one per goods and one per user (the per-key buckets are kept for the
 * most recent keys only). A request passes only if every bucket has a token; otherwise the answer says which limit
 * it hit and when to retry.
 */
public final class RateLimiter {
    /** Hit: which limit, and the seconds to wait (for Retry-After). */
    public record Limited(String scope, long retryAfterSeconds) {}

    private final double globalRate;
    private final double goodsRate;
    private final double userRate;
    private final double userBurst;
    private final TokenBucket global;
    private final Map<Long, TokenBucket> perGoods;
    private final Map<Long, TokenBucket> perUser;

    public RateLimiter(double globalRate, double goodsRate, double userRate, double userBurst, int maxTrackedKeys) {
        this.globalRate = globalRate;
        this.goodsRate = goodsRate;
        this.userRate = userRate;
        this.userBurst = userBurst;
        long now = System.nanoTime();
        this.global = new TokenBucket(globalRate, Math.max(1, globalRate / 10), now);
        this.perGoods = lru(maxTrackedKeys);
        this.perUser = lru(maxTrackedKeys);
    }

    /** Null when the request may pass; the limit it hit otherwise. */
    public Limited check(long goodsId, long userId) {
        long now = System.nanoTime();
        long wait = bucket(perUser, userId, userRate, userBurst, now).tryTake(now);
        if (wait > 0) return limited("user", wait);
        wait = bucket(perGoods, goodsId, goodsRate, Math.max(1, goodsRate / 10), now).tryTake(now);
        if (wait > 0) return limited("goods", wait);
        wait = global.tryTake(now);
        if (wait > 0) return limited("global", wait);
        return null;
    }

    private static Limited limited(String scope, long waitNanos) {
        return new Limited(scope, Math.max(1, (long) Math.ceil(waitNanos / 1e9)));
    }

    private static TokenBucket bucket(Map<Long, TokenBucket> map, long key, double rate, double burst, long now) {
        synchronized (map) {
            return map.computeIfAbsent(key, k -> new TokenBucket(rate, burst, now));
        }
    }

    private static Map<Long, TokenBucket> lru(int max) {
        return new LinkedHashMap<>(1024, 0.75f, true) {
            @Override protected boolean removeEldestEntry(Map.Entry<Long, TokenBucket> eldest) { return size() > max; }
        };
    }

    @Override public String toString() {
        return "global " + globalRate + "/s, per goods " + goodsRate + "/s, per user " + userRate + "/s (burst " + userBurst + ")";
    }
}
