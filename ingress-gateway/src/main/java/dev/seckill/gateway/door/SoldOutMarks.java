package dev.seckill.gateway.door;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The door's sold-out mark per goods. An outcome that leaves no stock (SOLD_OUT, or the SUCCESS that took the last
 * unit) marks the goods for a TTL; a SUCCESS that leaves stock, or a RELEASED/OPENED/RESTORED ledger entry, clears
 * the mark at once. When the TTL is over the mark is renewed, without letting a request through, if Redis's stock —
 * as a sale-window lookup that started after the mark was set (or last renewed) read it — is still 0: a goods that
 * stays sold out is answered at the door for as long as it does, instead of sending a burst of purchases through the
 * pipeline every TTL to learn again what it knew (docs/decisions.md, "Sold-out gate"). A read from before the mark
 * never renews it: an outcome decided before a release but read after its RELEASED entry marks a goods that has stock
 * again, and only a read made since can say whether it is still gone.
 *
 * <p>A SOLD_OUT that leaves stock (a quantity larger than what is left) marks nothing: a smaller purchase can still
 * succeed, and the door answers only what the stream would.
 *
 * <p>A goods split into buckets ({@link #split}) is marked by a SOLD_OUT alone: its outcomes' {@code stockAfter} is one
 * bucket's, and the stream answers SOLD_OUT for it only once a pass found every bucket empty (docs/invariants.md,
 * "Stock buckets"), while a SUCCESS that took a bucket's last unit says nothing of the others. Its mark is not renewed
 * from Redis (the window lookups read one bucket's keys): it lapses at the TTL. Its ledger entries mark it too
 * ({@link #bucketEntry}): each names its bucket and that bucket's units left, so once every bucket's last entry says 0
 * with no units in transit the goods is sold out — the moment its last unit is sold, not after a borrow went round.
 */
public final class SoldOutMarks {
    /** The stock Redis held at a read of a goods that started at or after {@code sinceMs}; null when there is none. */
    public interface StockReads {
        Long stockReadSince(long goodsId, long sinceMs);
    }

    private record Mark(long setAt, long until) {}

    private final Map<Long, Mark> marks = new ConcurrentHashMap<>();
    /** Per bucketed goods, what its current sale's ledger entries say so far. */
    private final Map<Long, BucketLeft> left = new ConcurrentHashMap<>();

    /**
     * A bucketed sale's units left per bucket (by each bucket's last entry) and its transfers on their way (by borrow:
     * a TRANSFERRED_OUT seen, its TRANSFERRED_IN not yet). Heard from the sale's OPENED on; one started mid-sale (the
     * view read the ledger from its end) never marks: a transfer out before it would be missed.
     */
    private static final class BucketLeft {
        final String sale;
        final long[] units;
        final boolean[] heard;
        final Set<String> inTransit;

        BucketLeft(String sale, int buckets, Set<String> inTransit) {
            this.sale = sale;
            this.units = new long[buckets];
            this.heard = new boolean[buckets];
            this.inTransit = inTransit;
        }

        boolean soldOut() {
            if (sale == null || !inTransit.isEmpty()) return false;
            for (int b = 0; b < units.length; b++) if (!heard[b] || units[b] > 0) return false;
            return true;
        }
    }

    /** The goods whose current sale is split into buckets, as the ledger says. */
    private final Set<Long> bucketed = ConcurrentHashMap.newKeySet();

    private final long ttlMs;
    private final StockReads reads;
    private final LongSupplier clock;
    private final LongAdder renewals = new LongAdder();

    /** @param clock epoch milliseconds, the clock the reads' start times are taken with */
    public SoldOutMarks(long ttlMs, StockReads reads, LongSupplier clock) {
        this.ttlMs = ttlMs;
        this.reads = reads;
        this.clock = clock;
    }

    /** The gateway's marks: renewed from the sale-window lookups' stock reads, renewals counted in {@code metrics}. */
    public static SoldOutMarks renewedFrom(SaleWindows windows, long ttlMs, MeterRegistry metrics) {
        SoldOutMarks marks = new SoldOutMarks(ttlMs, windows::stockReadSince, System::currentTimeMillis);
        FunctionCounter.builder("seckill_gateway_soldout_renewals", marks, SoldOutMarks::renewals)
                .description("times the door's sold-out mark was renewed from Redis's stock instead of expiring")
                .register(metrics);
        return marks;
    }

    public void outcome(Outcome o) {
        boolean takesStock = o.outcome() == OutcomeKind.SOLD_OUT || o.outcome() == OutcomeKind.SUCCESS;
        if (!takesStock) return;
        long now = clock.getAsLong();
        boolean success = o.outcome() == OutcomeKind.SUCCESS;
        if (o.stockAfter() <= 0 && !(success && bucketed.contains(o.goodsId())))
            marks.put(o.goodsId(), new Mark(now, now + ttlMs));
        else if (success) marks.remove(o.goodsId());
    }

    /** The ledger says how many buckets the goods' current sale is split into (1: not split). */
    public void split(long goodsId, int buckets) {
        if (buckets > 1) bucketed.add(goodsId);
        else bucketed.remove(goodsId);
    }

    /**
     * A ledger entry of a goods split into buckets. Entries of one bucket reach the ledger in its order, and a transfer's
     * TRANSFERRED_OUT before its TRANSFERRED_IN; an OPENED of another open starts the sale's count again. A view started
     * mid-sale marks nothing until it has heard every bucket.
     */
    public void bucketEntry(LedgerEntry e) {
        if (e.bucket() == null) return;
        String opId = e.opId();
        String sale =
                e.type() == LedgerType.OPENED && opId.contains("@b") ? opId.substring(0, opId.lastIndexOf("@b")) : null;
        BucketLeft now = left.compute(
                e.goodsId(),
                (g, was) ->
                        was == null || (sale != null && !sale.equals(was.sale)) || was.units.length != e.bucketCount()
                                // transfers of the sale before it may still land: they are carried over
                                ? new BucketLeft(sale, e.bucketCount(), was == null ? new HashSet<>() : was.inTransit)
                                : was);
        synchronized (now) {
            now.units[e.bucketIndex()] = e.stockAfter();
            now.heard[e.bucketIndex()] = true;
            String borrow = e.opId().substring(0, Math.max(0, e.opId().lastIndexOf(':')));
            if (e.type() == LedgerType.TRANSFERRED_OUT) now.inTransit.add(borrow);
            if (e.type() == LedgerType.TRANSFERRED_IN) now.inTransit.remove(borrow);
            long at = clock.getAsLong();
            if (now.soldOut()) marks.put(e.goodsId(), new Mark(at, at + ttlMs));
            else if (e.stockAfter() > 0) marks.remove(e.goodsId()); // this bucket has units: not sold out
        }
    }

    /** Stock came back (a release, a sale opened or restored): the door lets purchases through at once. */
    public void clear(long goodsId) {
        marks.remove(goodsId);
    }

    public boolean soldOut(long goodsId) {
        Mark m = marks.get(goodsId);
        if (m == null) return false;
        long now = clock.getAsLong();
        if (m.until() > now) return true;
        Long stock = bucketed.contains(goodsId) ? null : reads.stockReadSince(goodsId, m.setAt());
        if (stock != null && stock <= 0) {
            // replace, not put: a clear or a new mark that raced this renewal wins; another thread's renewal counts
            // once
            if (marks.replace(goodsId, m, new Mark(now, now + ttlMs))) renewals.increment();
            Mark renewed = marks.get(goodsId);
            return renewed != null && renewed.until() > now;
        }
        marks.remove(goodsId, m);
        return false;
    }

    /** How many times a mark was renewed from Redis's stock instead of expiring (for the metric and tests). */
    long renewals() {
        return renewals.sum();
    }
}
