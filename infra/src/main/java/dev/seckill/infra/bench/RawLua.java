package dev.seckill.infra.bench;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.stock.decision.StockScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/** The reference the decide figures are a ratio to: the same Lua deduct run raw against Redis, with and without pipelining. */
public final class RawLua {
    private RawLua() {}

    /** The purchase script as the stream calls it (fresh requestIds, a sale that never sells out), timed. */
    public static double opsPerSecond(UnifiedJedis redis, String prefix, int ops, boolean pipelined) {
        RedisKeys keys = new RedisKeys(prefix);
        long goods = 1;
        long end = System.currentTimeMillis() + 3_600_000;
        redis.hset(
                keys.sale(goods),
                Map.of("startAt", "0", "endAt", Long.toString(end), "perUserLimit", "1", "status", "open", "at", "0"));
        redis.set(keys.stock(goods), Long.toString(Long.MAX_VALUE / 2));
        redis.scriptLoad(StockScript.PURCHASE.source(), keys.stock(goods));
        List<String> k = keys.goodsKeys(goods);
        String sha = StockScript.PURCHASE.sha1();
        long t0 = System.nanoTime();
        if (!pipelined) {
            for (int i = 0; i < ops; i++) {
                redis.evalsha(sha, k, args(i));
            }
        } else if (redis instanceof RedisClient client) {
            for (int i = 0; i < ops; i += 32) {
                try (AbstractPipeline pipe = client.pipelined()) {
                    for (int j = i; j < Math.min(ops, i + 32); j++) {
                        pipe.evalsha(sha, k, args(j));
                    }
                    pipe.sync();
                }
            }
        }
        double rate = ops / ((System.nanoTime() - t0) / 1e9);
        for (String key : k) redis.del(key);
        return rate;
    }

    /**
     * purchase.lua's arguments for the i-th purchase: the keys expected at marker i (the previous command's offset, as
     * the stream chains them), fresh requestId and buyer, one unit, accepted at 1 ms.
     */
    private static List<String> args(int i) {
        return List.of(Integer.toString(i), Integer.toString(i + 1), "r" + i, Integer.toString(i), "1", "1", "");
    }

    /**
     * The same purchases decided 64 to a call by the batch script ({@link StockScript#PURCHASE_BATCH}), one call per
     * round trip: how many decisions one Redis node can make for one hot goods when the stream batches its purchases.
     */
    public static double batchedOpsPerSecond(UnifiedJedis redis, String prefix, int ops) {
        RedisKeys keys = new RedisKeys(prefix);
        long goods = 1;
        redis.hset(
                keys.sale(goods),
                Map.of(
                        "startAt",
                        "0",
                        "endAt",
                        Long.toString(System.currentTimeMillis() + 3_600_000),
                        "perUserLimit",
                        "1",
                        "status",
                        "open",
                        "at",
                        "0"));
        redis.set(keys.stock(goods), Long.toString(Long.MAX_VALUE / 2));
        redis.scriptLoad(StockScript.PURCHASE_BATCH.source(), keys.stock(goods));
        List<String> k = keys.goodsKeys(goods);
        long t0 = System.nanoTime();
        for (int i = 0; i < ops; i += 64) {
            List<String> args = new ArrayList<>();
            for (int j = i; j < Math.min(ops, i + 64); j++) args.addAll(args(j));
            redis.evalsha(StockScript.PURCHASE_BATCH.sha1(), k, args);
        }
        double rate = ops / ((System.nanoTime() - t0) / 1e9);
        for (String key : k) redis.del(key);
        return rate;
    }
}
