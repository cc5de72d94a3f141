package dev.seckill.stock.decision;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.params.RestoreParams;

/**
 * A goods' keys as Redis held them at one moment (DUMP), put back later (RESTORE REPLACE, with the time to live they
 * had left): what a restart from an older RDB snapshot, an AOF that lost its last second, a failover to a replica
 * that lagged or a restore from a backup leave behind.
 */
final class RedisSnapshot {
    private record Key(byte[] dump, long pttl) {}

    private final TestRedis redis;
    private final Map<String, Key> keys = new LinkedHashMap<>();

    private RedisSnapshot(TestRedis redis) {
        this.redis = redis;
    }

    static RedisSnapshot take(TestRedis redis, long goods) {
        RedisSnapshot s = new RedisSnapshot(redis);
        for (String key : redis.keys.goodsKeys(goods)) {
            byte[] dump = redis.redis.dump(key);
            if (dump != null) s.keys.put(key, new Key(dump, Math.max(0, redis.redis.pttl(key))));
        }
        return s;
    }

    /** Each key and its DUMP (Base64): equal when the keys held the same values, whatever their time to live. */
    Map<String, String> dumps() {
        Map<String, String> out = new LinkedHashMap<>();
        keys.forEach((key, k) -> out.put(key, Base64.getEncoder().encodeToString(k.dump())));
        return out;
    }

    /** Redis comes back with this snapshot: every key of the goods as it was then, nothing written since. */
    void putBack(long goods) {
        List<String> all = redis.keys.goodsKeys(goods);
        redis.redis.del(all.toArray(String[]::new));
        keys.forEach((key, k) -> redis.redis.restore(
                key, k.pttl(), k.dump(), RestoreParams.restoreParams().replace()));
    }

    /** Redis comes back empty (no persistence, a FLUSHALL). */
    static void wipe(TestRedis redis, long goods) {
        redis.redis.del(redis.keys.goodsKeys(goods).toArray(String[]::new));
    }
}
