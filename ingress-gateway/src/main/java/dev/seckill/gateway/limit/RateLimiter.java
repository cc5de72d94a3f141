package dev.seckill.gateway.limit;

/**
 * The door's rate limits: one global bucket, one per goods and one per user ({@link KeyedBuckets}, bounded). A request
 * passes only if every bucket has a token; otherwise the answer says which limit it hit and when to retry. The rates
 * are this instance's share: with N gateway replicas each enforces the global and per-goods limits divided by N
 * ({@link #forReplica}), so the deployment's limits mean what they say (docs/security.md).
 */
public final class RateLimiter {
    /** Hit: which limit, and the seconds to wait (for Retry-After). */
    public record Limited(String scope, long retryAfterSeconds) {}

    private final double globalRate;
    private final double goodsRate;
    private final double userRate;
    private final double userBurst;
    private final TokenBucket global;
    private final KeyedBuckets<Long> perGoods;
    private final KeyedBuckets<Long> perUser;

    public RateLimiter(double globalRate, double goodsRate, double userRate, double userBurst, int maxTrackedKeys) {
        this.globalRate = globalRate;
        this.goodsRate = goodsRate;
        this.userRate = userRate;
        this.userBurst = userBurst;
        this.global = new TokenBucket(globalRate, Math.max(1, globalRate / 10), System.nanoTime());
        this.perGoods = new KeyedBuckets<>(goodsRate, Math.max(1, goodsRate / 10), maxTrackedKeys);
        this.perUser = new KeyedBuckets<>(userRate, userBurst, maxTrackedKeys);
    }

    /**
     * This instance's share of limits set for the whole deployment, served by {@code replicas} gateways behind one load
     * balancer: the global and per-goods rates — traffic of many clients, which the balancer spreads — divided by the
     * replica count; a buyer's rate and burst kept whole, as a buyer's requests ride one kept-alive connection to one
     * instance (dividing them would give an honest buyer 1/N of the limit; a buyer opening N connections gets at most
     * N times it, and the stream's one-live-purchase rule makes the extra requests DUPLICATEs).
     */
    public static RateLimiter forReplica(
            double globalRate, double goodsRate, double userRate, double userBurst, int maxTrackedKeys, int replicas) {
        if (replicas < 1)
            throw new IllegalStateException("SECKILL_GATEWAY_REPLICAS must be at least 1, got " + replicas);
        return new RateLimiter(globalRate / replicas, goodsRate / replicas, userRate, userBurst, maxTrackedKeys);
    }

    /** Null when the request may pass; the limit it hit otherwise. */
    public Limited check(long goodsId, long userId) {
        long now = System.nanoTime();
        long wait = perUser.take(userId, now);
        if (wait > 0) return limited("user", wait);
        wait = perGoods.take(goodsId, now);
        if (wait > 0) return limited("goods", wait);
        wait = global.tryTake(now);
        if (wait > 0) return limited("global", wait);
        return null;
    }

    /** How many per-user and per-goods buckets are kept. */
    public long trackedKeys() {
        return perUser.size() + perGoods.size();
    }

    static Limited limited(String scope, long waitNanos) {
        return new Limited(scope, Math.max(1, (long) Math.ceil(waitNanos / 1e9)));
    }

    @Override
    public String toString() {
        return "global " + globalRate + "/s, per goods " + goodsRate + "/s, per user " + userRate + "/s (burst "
                + userBurst + ")";
    }
}
