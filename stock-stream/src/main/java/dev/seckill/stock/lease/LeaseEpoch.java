package dev.seckill.stock.lease;

import java.util.UUID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;

/**
 * The key whose value marks one life of Redis' memory beside the stream's leases: gone, or another, and Redis forgot
 * every lease (restarted empty, a replica promoted without it). It lives {@code ttlMs} past the last watch that saw it,
 * renewed every quarter of that, so it outlives no stream by more (a test's namespace, a retired application id).
 */
final class LeaseEpoch {
    /** What one watch read of the epoch says. */
    enum Read {
        /** The same life as before. */
        SAME,
        /** The first watch of all, and no epoch yet: one is set (the peers' leases may not be there yet either). */
        FIRST,
        /** Redis forgot: the epoch gone or another since the last watch. */
        FORGOT
    }

    private final UnifiedJedis redis;
    private final String key;
    private final long ttlMs;
    /** The value the last watch saw; null before the first. */
    private String seen;

    private long renewedAt = Long.MIN_VALUE;

    LeaseEpoch(UnifiedJedis redis, String keyPrefix, long ttlMs) {
        this.redis = redis;
        this.key = keyPrefix + "epoch";
        this.ttlMs = ttlMs;
    }

    String key() {
        return key;
    }

    /** One watch's read of the key ({@code read}: its value, null when missing) at {@code nowMs}. */
    Read watched(String read, long nowMs) {
        if (read != null && (seen == null || seen.equals(read))) {
            seen = read;
            if (nowMs - renewedAt >= ttlMs / 4) {
                redis.pexpire(key, ttlMs);
                renewedAt = nowMs;
            }
            return Read.SAME;
        }
        redis.set(key, UUID.randomUUID().toString(), SetParams.setParams().nx().px(ttlMs));
        String was = seen;
        seen = redis.get(key);
        renewedAt = nowMs;
        return was != null ? Read.FORGOT : read == null ? Read.FIRST : Read.SAME;
    }
}
