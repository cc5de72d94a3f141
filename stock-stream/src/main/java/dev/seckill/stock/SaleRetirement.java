package dev.seckill.stock;

import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.stock.decision.StoredDecision;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Retires what an ended sale no longer needs, by the wall clock (a punctuator): once its keys have expired in Redis
 * (at the fold's {@code expireAt}, or a day after the end for folds written before it was kept) its holdings (Redis
 * has no buyers left to rebuild; the next open starts without buyers anyway); {@link #DECISIONS_KEPT} later its
 * decisions (until then a retry is still recognised and a reused id refused) — also when the goods has a later sale
 * by then (the decisions made before the later sale's open go a week after the earlier sale's keys expired). Decisions of goods the stream knows no
 * sale of (REJECTED no_sale) are kept {@link #NO_SALE_KEPT}. The goods' fold itself stays, one small record per goods:
 * a later sale of the goods takes its OPENED quantity against the fold's count.
 */
public final class SaleRetirement {
    /** How long a sale's decisions outlive its keys. */
    public static final Duration DECISIONS_KEPT = Duration.ofDays(7);
    /** How long the decision of a purchase of a goods with no sale is kept. */
    static final Duration NO_SALE_KEPT = Duration.ofDays(1);
    /** How often the decisions of goods with no sale are swept (a scan of every decision). */
    private static final Duration NO_SALE_SWEEP_EVERY = Duration.ofHours(1);

    private final KeyValueStore<Long, GoodsFold> folds;
    private final KeyValueStore<String, GoodsFold.Holding> holdings;
    private final KeyValueStore<String, String> decisions;
    private long lastSweep;

    SaleRetirement(
            KeyValueStore<Long, GoodsFold> folds,
            KeyValueStore<String, GoodsFold.Holding> holdings,
            KeyValueStore<String, String> decisions) {
        this.folds = folds;
        this.holdings = holdings;
        this.decisions = decisions;
    }

    /** Retires what is due at {@code now}; returns the goods whose sale's keys have expired (ended sales). */
    List<Long> purge(long now) {
        List<Long> ended = new ArrayList<>();
        List<Long> forgotten = new ArrayList<>();
        List<Long> earlierSalesForgotten = new ArrayList<>();
        try (var all = folds.all()) {
            all.forEachRemaining(kv -> {
                long expireAt = kv.value.expireAt > 0
                        ? kv.value.expireAt
                        : kv.value.endAt > 0 ? kv.value.endAt + KeyLifetime.DEFAULT_GRACE.toMillis() : Long.MAX_VALUE;
                if (expireAt < now) ended.add(kv.key);
                if (expireAt < now - DECISIONS_KEPT.toMillis()) forgotten.add(kv.key);
                else if (kv.value.previousExpireAt > 0 && kv.value.previousExpireAt < now - DECISIONS_KEPT.toMillis())
                    earlierSalesForgotten.add(kv.key);
            });
        }
        for (Long goodsId : ended) deleteAll(holdings, goodsId + ":", v -> true);
        for (Long goodsId : forgotten) deleteAll(decisions, goodsId + ":", v -> true);
        for (Long goodsId : earlierSalesForgotten) {
            GoodsFold fold = folds.get(goodsId);
            deleteAll(decisions, goodsId + ":", v -> offset(StoredDecision.parse(v)) < fold.openOffset);
            fold.previousExpireAt = 0;
            folds.put(goodsId, fold);
        }
        if (now - lastSweep >= NO_SALE_SWEEP_EVERY.toMillis()) {
            lastSweep = now;
            sweepNoSale(now);
        }
        return ended;
    }

    /** The offset of the command a decision answered (a goods' commands are all in one partition); -1 if unknown. */
    private static long offset(StoredDecision d) {
        int colon = d.position().indexOf(':');
        try {
            return colon < 0 ? -1 : Long.parseLong(d.position().substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void sweepNoSale(long now) {
        List<String> old = new ArrayList<>();
        try (var all = decisions.all()) {
            all.forEachRemaining(kv -> {
                long goodsId = Long.parseLong(kv.key.substring(0, kv.key.indexOf(':')));
                if (StoredDecision.parse(kv.value).decidedAt() < now - NO_SALE_KEPT.toMillis()
                        && folds.get(goodsId) == null) old.add(kv.key);
            });
        }
        old.forEach(decisions::delete);
    }

    private static <V> void deleteAll(KeyValueStore<String, V> store, String prefix, Predicate<V> which) {
        List<String> keys = new ArrayList<>();
        try (var it = store.prefixScan(prefix, new StringSerializer())) {
            it.forEachRemaining(kv -> {
                if (which.test(kv.value)) keys.add(kv.key);
            });
        }
        keys.forEach(store::delete);
    }
}
