package dev.seckill.stock.bucket;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * One bucket's side of the transfer rule (docs/invariants.md, "Stock buckets"): what the bucket does with each command
 * of its goods that touches units, as effects the caller emits — answers, ledger moves, commands to another bucket's
 * partition. Every call is one command decided in the bucket's serial order; nothing here reads a clock or another
 * bucket, so a bucket's decisions follow from its own command log (invariant 6).
 *
 * <ul>
 *   <li>A purchase the bucket's units cover is sold. One they do not cover is <em>parked</em> with every later one
 *       behind it (arrival order kept), and the bucket sends a {@link Borrow} round the ring, unless every bucket was
 *       found empty less than {@link Terms#reborrowAfterMs} ago: then it is answered SOLD_OUT.
 *   <li>A borrow reaching a bucket with units and nothing parked moves half its units (at least 1, at most what is
 *       wanted) out: TRANSFERRED_OUT here, a {@link TransferIn} to the borrower. A bucket with none (or with purchases
 *       parked itself) passes it to the next.
 *   <li>A borrow that comes back to its borrower found every bucket empty as it passed: the parked purchases are
 *       decided on what the bucket holds, the rest SOLD_OUT.
 *   <li>A transfer in, or a release, adds units and decides the parked purchases they cover; if some are still
 *       parked, the bucket borrows again.
 * </ul>
 */
public final class BucketTransfers {
    /**
     * @param prefetch units a borrow asks beyond what its parked purchases need (fewer borrows, more units that may sit
     *     in a bucket while another's buyer is turned away: the bound grows by it per bucket)
     * @param reborrowAfterMs how long a pass that found every bucket empty answers SOLD_OUT without a new one
     */
    public record Terms(long prefetch, long reborrowAfterMs) {
        public Terms {
            if (prefetch < 0) throw new IllegalArgumentException("prefetch must be at least 0, got " + prefetch);
            if (reborrowAfterMs < 0)
                throw new IllegalArgumentException("reborrowAfterMs must be at least 0, got " + reborrowAfterMs);
        }
    }

    /** A command from one bucket to another, produced to the receiver's partition. */
    public sealed interface Message permits Borrow, TransferIn {
        /** The bucket it is delivered to. */
        int to();

        String opId();
    }

    /** {@code borrower} wants {@code want} units; delivered to bucket {@code to}, which gives or passes it on. */
    public record Borrow(int borrower, int to, long want, String opId) implements Message {}

    /** {@code units} moved out of bucket {@code from} for bucket {@code to}'s borrow {@code borrowOpId}. */
    public record TransferIn(int from, int to, long units, String borrowOpId) implements Message {
        @Override
        public String opId() {
            return "transfer:" + borrowOpId + ":" + from;
        }
    }

    /** What deciding one command does. */
    public sealed interface Effect permits Answer, Parked, Send, MovedOut, MovedIn {}

    /** A purchase decided: sold ({@code units} deducted) or SOLD_OUT. */
    public record Answer(String requestId, boolean sold, long units) implements Effect {}

    /** A purchase parked until units come or a pass finds none. */
    public record Parked(String requestId) implements Effect {}

    /** A command for another bucket. */
    public record Send(Message message) implements Effect {}

    /** The ledger's TRANSFERRED_OUT: {@code units} left this bucket for {@code to}. */
    public record MovedOut(int to, long units, String opId) implements Effect {}

    /** The ledger's TRANSFERRED_IN: {@code units} came from {@code from}. */
    public record MovedIn(int from, long units, String opId) implements Effect {}

    private record Waiting(String requestId, long units) {}

    private final BucketPlan plan;
    private final int bucket;
    private final Terms terms;
    private long stock;
    private final Deque<Waiting> parked = new ArrayDeque<>();
    private long parkedUnits;
    /** The opId of this bucket's borrow going round, or null. */
    private String borrowing;
    /** When the last pass found every bucket empty, or -1 since units came. */
    private long emptyPassAt = -1;

    private long borrows;

    public BucketTransfers(BucketPlan plan, int bucket, long stock, Terms terms) {
        if (bucket < 0 || bucket >= plan.buckets())
            throw new IllegalArgumentException("bucket must be 0.." + (plan.buckets() - 1) + ", got " + bucket);
        if (stock < 0) throw new IllegalArgumentException("stock must be at least 0, got " + stock);
        this.plan = plan;
        this.bucket = bucket;
        this.stock = stock;
        this.terms = terms;
    }

    public long stock() {
        return stock;
    }

    /** The units the parked purchases ask for. */
    public long parkedUnits() {
        return parkedUnits;
    }

    public boolean borrowing() {
        return borrowing != null;
    }

    /** A purchase of {@code units} that passed every other check (dedupe, window, limit, buyer). */
    public List<Effect> purchase(String requestId, long units, long now) {
        List<Effect> out = new ArrayList<>(2);
        if (!parked.isEmpty()) {
            park(requestId, units, out);
            return out;
        }
        if (stock >= units) {
            stock -= units;
            out.add(new Answer(requestId, true, units));
            return out;
        }
        if (plan.buckets() == 1 || (emptyPassAt >= 0 && now - emptyPassAt < terms.reborrowAfterMs())) {
            out.add(new Answer(requestId, false, units));
            return out;
        }
        park(requestId, units, out);
        borrow(out);
        return out;
    }

    /** Units a release gave back to this bucket. */
    public List<Effect> release(long units) {
        if (units < 0) throw new IllegalArgumentException("units must be at least 0, got " + units);
        stock += units;
        List<Effect> out = new ArrayList<>();
        decideParked(out);
        return out;
    }

    /** A borrow delivered to this bucket: its own, come back round, or another's to give to or pass on. */
    public List<Effect> borrow(Borrow b, long now) {
        List<Effect> out = new ArrayList<>(2);
        if (b.borrower() == bucket) {
            if (!b.opId().equals(borrowing)) return out; // not the one going round now: nothing to decide
            borrowing = null;
            emptyPassAt = now;
            while (!parked.isEmpty()) {
                Waiting w = parked.poll();
                parkedUnits -= w.units();
                boolean sold = stock >= w.units();
                if (sold) stock -= w.units();
                out.add(new Answer(w.requestId(), sold, w.units()));
            }
            return out;
        }
        if (parked.isEmpty() && stock > 0) {
            long k = Math.min((stock + 1) / 2, Math.max(1, b.want()));
            stock -= k;
            TransferIn t = new TransferIn(bucket, b.borrower(), k, b.opId());
            out.add(new MovedOut(b.borrower(), k, t.opId()));
            out.add(new Send(t));
            return out;
        }
        out.add(new Send(new Borrow(b.borrower(), plan.next(bucket), b.want(), b.opId())));
        return out;
    }

    /** Units moved in from another bucket's borrow answer. */
    public List<Effect> transferIn(TransferIn t) {
        List<Effect> out = new ArrayList<>();
        stock += t.units();
        out.add(new MovedIn(t.from(), t.units(), t.opId()));
        if (t.borrowOpId().equals(borrowing)) borrowing = null;
        emptyPassAt = -1;
        decideParked(out);
        return out;
    }

    private void park(String requestId, long units, List<Effect> out) {
        parked.add(new Waiting(requestId, units));
        parkedUnits += units;
        out.add(new Parked(requestId));
    }

    /** Sells the parked purchases the units now cover, in order; borrows again for the rest. */
    private void decideParked(List<Effect> out) {
        while (!parked.isEmpty() && stock >= parked.peek().units()) {
            Waiting w = parked.poll();
            parkedUnits -= w.units();
            stock -= w.units();
            out.add(new Answer(w.requestId(), true, w.units()));
        }
        if (!parked.isEmpty()) borrow(out);
    }

    private void borrow(List<Effect> out) {
        if (borrowing != null) return;
        borrowing = "borrow:" + plan.goodsId() + ":" + bucket + ":" + ++borrows;
        long want = Math.max(1, parkedUnits - stock) + terms.prefetch();
        out.add(new Send(new Borrow(bucket, plan.next(bucket), want, borrowing)));
    }
}
