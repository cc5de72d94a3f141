package dev.seckill.reconcile;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.reconcile.ReconcileQueries.Holding;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;

/**
 * A goods whose stock is split into buckets, as the reconciler sees it: each bucket has its own keys ({@code {G}} for
 * bucket 0, {@code {G.b}} for bucket b) and the goods is their sum; its drift is flagged, never repaired by a restore
 * of the goods (docs/decisions.md, "Stock buckets").
 */
final class BucketedGoods {
    /** The goods' stock over its buckets' keys (null when no bucket has a stock key) and its buyers. */
    record RedisSide(Long stock, long buyers) {}

    private BucketedGoods() {}

    /** Sums the stock and buyers keys of the goods' {@code buckets} buckets (1: the goods' own keys). */
    static RedisSide read(UnifiedJedis redis, RedisKeys keys, long goods, int buckets) {
        Long stock = null;
        long buyers = 0;
        for (int b = 0; b < buckets; b++) {
            String bucketStock = redis.get(keys.stock(goods, b));
            // units in transit between two buckets are in neither bucket's keys (the fold counts them: decisions.md)
            if (bucketStock != null) stock = (stock == null ? 0 : stock) + Long.parseLong(bucketStock);
            buyers += redis.hlen(keys.buyers(goods, b));
        }
        return new RedisSide(stock, buyers);
    }

    /**
     * Flags (once per finding) a settled bucketed goods' drift: Redis against the ledger, and live buyers without an
     * order. A {@code restore} rebuilds one goods' keys from the stream's fold of one partition, and a bucketed goods
     * has a fold and keys per bucket: a restore of the goods would put all its units in bucket 0's keys. Missing
     * orders are flagged too: an order is placed by its bucket's partition and open offset.
     */
    static List<String> flag(
            Connection c,
            Repairs repairs,
            GoodsDrift drift,
            Map<Long, Holding> holdings,
            Map<String, Long> liveOrders,
            int buckets)
            throws Exception {
        long goods = drift.goodsId();
        List<String> done = new ArrayList<>();
        if (!drift.redisAgrees()) {
            String why = "Redis stock " + drift.redisStock() + " / buyers " + drift.redisBuyers() + " over " + buckets
                    + " buckets, ledger says " + drift.ledgerStock() + " / " + holdings.size()
                    + ": a bucketed goods is restored bucket by bucket";
            String flagged = repairs.flagOnce(c, goods, "redis_drift", "flagged", why);
            if (flagged != null) done.add(flagged);
        }
        for (Map.Entry<Long, Holding> h : holdings.entrySet()) {
            String requestId = h.getValue().requestId();
            if (liveOrders.containsKey(requestId) || ReconcileQueries.orderExists(c, goods, requestId, null)) continue;
            String why = "SUCCESS " + requestId + " of user " + h.getKey() + " has no order row (bucketed goods)";
            String flagged = repairs.flagOnce(c, goods, "missing_order", "flagged", why);
            if (flagged != null) done.add(flagged);
        }
        return done;
    }
}
