package dev.seckill.gateway;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * The door's sold-out mark per goods. An outcome that leaves no stock (SOLD_OUT, or the SUCCESS that took the last
 * unit) marks the goods for a TTL; a SUCCESS that leaves stock, or a RELEASED/OPENED/RESTORED ledger entry, clears
 * the mark at once. When the TTL is over the mark is renewed, without letting a request through, if Redis's stock —
 * as the sale-window lookup last read it, at most a few seconds ago — is still 0: a goods that stays sold out is
 * answered at the door for as long as it does, instead of sending a burst of purchases through the pipeline every TTL
 * to learn again what it knew (docs/decisions.md, "Sold-out gate").
 *
 * <p>A SOLD_OUT that leaves stock (a quantity larger than what is left) marks nothing: a smaller purchase can still
 * succeed, and the door answers only what the stream would.
 */
final class SoldOutMarks {
    private final Map<Long, Long> until = new ConcurrentHashMap<>();
    private final long ttlMs;
    private final LongFunction<Long> recentStock;
    private final LongSupplier clock;
    private final LongAdder renewals = new LongAdder();

    /**
     * @param recentStock a goods' stock as Redis held it at a recent read, or null when no recent read is known
     * @param clock epoch milliseconds
     */
    SoldOutMarks(long ttlMs, LongFunction<Long> recentStock, LongSupplier clock) {
        this.ttlMs = ttlMs;
        this.recentStock = recentStock;
        this.clock = clock;
    }

    /** The gateway's marks: renewed from the sale-window lookups' stock reads, renewals counted in {@code metrics}. */
    static SoldOutMarks renewedFrom(SaleWindows windows, long ttlMs, Clock clock, MeterRegistry metrics) {
        SoldOutMarks marks = new SoldOutMarks(ttlMs, g -> windows.recentStock(g, clock.millis()), clock::millis);
        FunctionCounter.builder("seckill_gateway_soldout_renewals", marks, SoldOutMarks::renewals)
                .description("times the door's sold-out mark was renewed from Redis's stock instead of expiring")
                .register(metrics);
        return marks;
    }

    void outcome(Outcome o) {
        boolean takesStock = o.outcome() == OutcomeKind.SOLD_OUT || o.outcome() == OutcomeKind.SUCCESS;
        if (!takesStock) return;
        if (o.stockAfter() <= 0) until.put(o.goodsId(), clock.getAsLong() + ttlMs);
        else if (o.outcome() == OutcomeKind.SUCCESS) until.remove(o.goodsId());
    }

    /** Stock came back (a release, a sale opened or restored): the door lets purchases through at once. */
    void clear(long goodsId) {
        until.remove(goodsId);
    }

    boolean soldOut(long goodsId) {
        Long u = until.get(goodsId);
        if (u == null) return false;
        long now = clock.getAsLong();
        if (u > now) return true;
        Long stock = recentStock.apply(goodsId);
        if (stock != null && stock <= 0) {
            // replace, not put: a clear that raced this renewal wins; a renewal by another thread counts once
            if (until.replace(goodsId, u, now + ttlMs)) renewals.increment();
            Long renewed = until.get(goodsId);
            return renewed != null && renewed > now;
        }
        until.remove(goodsId, u);
        return false;
    }

    /** How many times a mark was renewed from Redis's stock instead of expiring (for the metric and tests). */
    long renewals() {
        return renewals.sum();
    }
}
