package dev.seckill.gateway.limit;

/**
 * The limit on status reads ({@code GET /api/purchases...}): per buyer when the request carries a token, per client
 * address when it does not, so that a flood of lookups — of random ids, unauthenticated — is refused at the door
 * (429) before it reaches Redis, and one client's flood cannot use another's share. Bounded like the door's limits
 * ({@link KeyedBuckets}).
 */
public final class ReadLimiter {
    private final KeyedBuckets<String> perClient;

    public ReadLimiter(double ratePerSecond, double burst, int maxTrackedKeys) {
        this.perClient = new KeyedBuckets<>(ratePerSecond, burst, maxTrackedKeys);
    }

    /** Null when the read may pass; the limit it hit otherwise ({@code buyer} or {@code address}). */
    public RateLimiter.Limited check(Long buyer, String address) {
        String key = buyer != null ? "u" + buyer : "a" + address;
        long wait = perClient.take(key, System.nanoTime());
        return wait > 0 ? RateLimiter.limited(buyer != null ? "buyer" : "address", wait) : null;
    }

    public long trackedKeys() {
        return perClient.size();
    }
}
