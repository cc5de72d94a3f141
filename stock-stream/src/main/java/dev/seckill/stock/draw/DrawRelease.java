package dev.seckill.stock.draw;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Passes a drawn window's held commands on to the decide step in the draw's order, at most {@code chunk} per
 * transaction across all goods (several goods drawn at once share it) and asking for a commit after each, so a draw of
 * any size commits in transactions of a bounded size (a window of ~700k
 * entries passed on at once outgrew the 10 s transaction timeout, aborted and ran again identically, for ever). The
 * order is stored as sequence numbers in chunks beside the held commands ({@link HeldStore}), so a crash or a rebalance
 * resumes where the last commit left it; commands of the goods that arrive meanwhile wait behind it, in arrival order.
 * What is passed on, and in what order, is what passing it all at once gave: the outputs only spread over more
 * transactions.
 */
final class DrawRelease {
    /** How far a draw started while an earlier one of the goods is still released numbers its held commands. */
    static final long BAND = 1L << 40;

    private final HeldStore store;
    private final Consumer<HeldCommand> passOn;
    private final Runnable requestCommit;
    private final int chunk;
    private final Map<Long, Release> releases = new HashMap<>();
    /** The order chunk last read per goods: {chunk index, its sequence numbers}. */
    private final Map<Long, Object[]> chunkCache = new HashMap<>();
    /** What the current transaction may still pass on ({@link #newTransaction}). */
    private int budget;

    DrawRelease(HeldStore store, Consumer<HeldCommand> passOn, Runnable requestCommit, int chunk) {
        if (chunk < 1) throw new IllegalArgumentException("a release chunk must be at least 1, got " + chunk);
        this.store = store;
        this.passOn = passOn;
        this.requestCommit = requestCommit;
        this.chunk = chunk;
        this.budget = chunk;
    }

    /**
     * A new transaction may pass on {@code chunk} commands: called at each wall-clock tick, before which the commit the
     * previous one asked for has run (a stream thread commits a task that asked between two punctuations). A draw that
     * starts between ticks passes on what is left of the budget, the rest at the next tick.
     */
    void newTransaction() {
        budget = chunk;
    }

    /** What the store says is being released (after a restore). */
    void load() {
        releases.clear();
        chunkCache.clear();
        for (Release r : store.releases()) releases.put(r.goodsId(), r);
    }

    boolean active(long goods) {
        return releases.containsKey(goods);
    }

    /** Where a new draw of the goods numbers its held commands: past those of a release still running, else from 0. */
    long firstSeqForNewDraw(long goods) {
        Release r = releases.get(goods);
        return r == null ? 0 : r.firstSeq() + BAND;
    }

    /** A command of the goods that arrived while its draw is released: held behind what is still to pass on. */
    void holdBehind(long goods, HeldCommand h) {
        Release r = releases.get(goods);
        store.hold(goods, r.nextSeq(), h);
        save(r.heldOne());
    }

    /** Starts passing on a drawn window: its order stored in chunks, then the first chunk passed on at once. */
    void start(PendingDraw d, DrawOrder order) {
        List<Integer> positions = order.positions();
        for (int from = 0, c = 0; from < positions.size(); from += chunk, c++) {
            int to = Math.min(positions.size(), from + chunk);
            long[] seqs = new long[to - from];
            for (int i = from; i < to; i++) seqs[i - from] = d.firstSeq() + positions.get(i);
            store.saveOrder(d.goodsId(), c, seqs);
        }
        save(new Release(d.goodsId(), d, positions.size(), chunk, 0, d.nextSeq()));
        passOn(d.goodsId());
    }

    /** Passes on the next chunk of every release (the wall-clock tick). */
    void passOnAll() {
        for (long goods : new ArrayList<>(releases.keySet())) passOn(goods);
    }

    /**
     * Passes on what is left of the transaction's budget of the goods' release; ends it when nothing is left, else
     * asks for a commit. Its progress is stored once, at the end: the transaction commits all of it or none.
     */
    private void passOn(long goods) {
        Release r = releases.get(goods);
        for (; budget > 0 && r.remaining() > 0; budget--) {
            long p = r.released();
            boolean ordered = p < r.ordered();
            long seq = ordered ? orderedSeq(r, p) : r.firstSeq() + p;
            HeldCommand h = store.remove(goods, seq);
            r = r.passedOne();
            releases.put(goods, r); // before passing on: it may start a new draw of the goods, which asks where
            HeldCommand passed = ordered ? DrawOrder.asDecided(r.draw(), h) : h;
            // the window's entries are marked: a goods split into buckets hands its units out to them in this order
            passOn.accept(ordered && DrawOrder.isEntry(r.draw(), h) ? HeldOrigin.asEntry(passed) : passed);
            r = releases.get(goods); // passing on may have held more behind it (never for this goods: kept in order)
        }
        if (r.remaining() == 0) {
            for (long c = 0; c * r.orderChunk() < r.ordered(); c++) store.deleteOrder(goods, c);
            store.delete(r);
            releases.remove(goods);
            chunkCache.remove(goods);
        } else {
            store.save(r);
            requestCommit.run();
        }
    }

    private long orderedSeq(Release r, long position) {
        long c = position / r.orderChunk();
        Object[] cached = chunkCache.get(r.goodsId());
        if (cached == null || (long) cached[0] != c) {
            cached = new Object[] {c, store.order(r.goodsId(), c)};
            chunkCache.put(r.goodsId(), cached);
        }
        return ((long[]) cached[1])[(int) (position % r.orderChunk())];
    }

    private void save(Release r) {
        releases.put(r.goodsId(), r);
        store.save(r);
    }
}
