package dev.seckill.gateway.limit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One token bucket per key (a buyer, a goods, a client address), in a concurrent map with no lock around it: every
 * request of every event loop checks it, and one lock around an LRU map (the first version) made the loops queue
 * behind each other. The map is kept under {@code maxKeys} by retiring buckets that have refilled to their burst —
 * exact, since a full bucket answers as a new one would; a request that still holds a retired bucket takes from the
 * map's current one instead. Only when more keys than that are active at once are others retired too: those with a
 * token left (they may burst again); limited keys only when they alone are more than twice the bound (memory first).
 */
final class KeyedBuckets<K> {
    private final double rate;
    private final double burst;
    private final int maxKeys;
    private final ConcurrentHashMap<K, TokenBucket> buckets = new ConcurrentHashMap<>();

    KeyedBuckets(double rate, double burst, int maxKeys) {
        this.rate = rate;
        this.burst = burst;
        this.maxKeys = maxKeys;
    }

    /** Takes a token of {@code key}'s bucket: 0 when granted, else the nanoseconds until one will be there. */
    long take(K key, long now) {
        while (true) {
            TokenBucket b = buckets.get(key);
            if (b == null) {
                b = buckets.computeIfAbsent(key, k -> new TokenBucket(rate, burst, now));
                if (buckets.mappingCount() > maxKeys) prune(now);
            }
            long wait = b.tryTake(now);
            if (wait != TokenBucket.RETIRED) return wait;
            buckets.remove(key, b); // retired by a prune: take from the bucket the map holds (or a new one)
        }
    }

    /** Puts back a token taken from {@code key}'s bucket (into the map's current bucket, capped at its burst). */
    void giveBack(K key) {
        TokenBucket b = buckets.get(key);
        if (b != null) b.giveBack();
    }

    long size() {
        return buckets.mappingCount();
    }

    /**
     * Retires the full buckets; if still over the bound, those with a token; then any, if need be. Every thread that
     * finds the map over its bound sweeps (no thread waits for another), so keys cannot be added faster than swept.
     */
    private void prune(long now) {
        long target = maxKeys * 9L / 10; // some room, so that the next inserts do not prune again
        retire(now, Double.MAX_VALUE, target);
        if (buckets.mappingCount() > target) retire(now, 1, target);
        // limited keys alone over twice the bound: memory comes first
        if (buckets.mappingCount() > 2L * maxKeys) retire(now, Double.NEGATIVE_INFINITY, target);
    }

    /** Retires and removes buckets holding at least {@code minTokens} (capped at each burst) until at most {@code target} remain. */
    private void retire(long now, double minTokens, long target) {
        for (Map.Entry<K, TokenBucket> e : buckets.entrySet()) {
            if (minTokens == Double.NEGATIVE_INFINITY && buckets.mappingCount() <= target) return;
            TokenBucket b = e.getValue();
            if (b.retireIfAtLeast(minTokens, now)) buckets.remove(e.getKey(), b);
        }
    }
}
