package dev.seckill.gateway.readside;

import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.gateway.status.DrawWait;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sales whose opening window has not been drawn yet, as the ledger tells the gateway (docs/contracts.md, "The
 * draw"): an OPENED entry with a draw names the window, its cutoff and beacon round; DRAWN (or a CLOSED, or another
 * OPENED without a draw) ends it. The stream holds every purchase of the goods from the window's start until the draw
 * ran — the window's own, and those after it while the draw waits for its cutoff and its beacon round — so such a
 * purchase is answered {@code WAITING_DRAW} ({@link #holding}) instead of {@code PENDING}: its outcome comes once the
 * draw ran. A registration's window lies before the sale's start: the door lets its purchases through instead of
 * answering {@code not_started}. At most one entry per goods with a drawn sale. A gateway started after the open learns
 * its window from the ledger's past ({@link DrawWindowsBackfill}, before it listens), which counts only for goods the
 * live ledger has not named since.
 */
public final class DrawWindows {
    private final Map<Long, DrawFacts> open = new ConcurrentHashMap<>();
    /** Goods whose window the live ledger changed while the past was read (null once it was read). */
    private Set<Long> heardLive = new HashSet<>();

    /** A ledger entry as it is written. */
    void onLedger(LedgerEntry e) {
        if (!changesWindow(e)) return; // most entries (deductions) take no lock
        synchronized (this) {
            if (heardLive != null) heardLive.add(e.goodsId());
            apply(e);
        }
    }

    /** A ledger entry written before this gateway started: older than anything heard live of its goods. */
    synchronized void past(LedgerEntry e) {
        if (changesWindow(e) && heardLive != null && !heardLive.contains(e.goodsId())) apply(e);
    }

    /** The past was read: the live ledger alone from here on. */
    public synchronized void pastRead() {
        heardLive = null;
    }

    /** Windows open now. */
    int size() {
        return open.size();
    }

    /**
     * Whether the entry opens, draws or closes a window: a goods split into buckets is drawn at its home, bucket 0 (the
     * others open first-come without units, and close with it).
     */
    private static boolean changesWindow(LedgerEntry e) {
        return (e.type() == LedgerType.OPENED || e.type() == LedgerType.DRAWN || e.type() == LedgerType.CLOSED)
                && e.bucketIndex() == 0;
    }

    private void apply(LedgerEntry e) {
        if (e.type() == LedgerType.OPENED && e.draw() != null && e.draw().windowEndAt() != null)
            open.put(e.goodsId(), e.draw());
        else open.remove(e.goodsId());
    }

    /**
     * The draw a purchase of {@code goodsId} accepted at {@code acceptedAt} waits for: the goods' draw not drawn yet,
     * when the purchase is from its window's start on (inside the window, or after it while the draw has not run);
     * null: none, the purchase is decided as it comes.
     */
    public DrawFacts holding(long goodsId, Instant acceptedAt) {
        DrawFacts d = open.get(goodsId);
        return d != null && !acceptedAt.isBefore(d.windowStartAt()) ? d : null;
    }

    /** When the window a purchase of {@code goodsId} accepted at {@code acceptedAt} waits for closes; null: none. */
    Instant closesAt(long goodsId, Instant acceptedAt) {
        DrawFacts d = holding(goodsId, acceptedAt);
        return d == null ? null : d.windowEndAt();
    }

    /**
     * The facts of {@code wait}'s draw while it has not been drawn: the goods' (when {@code goodsId} is known), else any
     * open window with the same end and cutoff (an id a gateway issued names no goods); null when none is known (drawn
     * already, or never heard of).
     */
    public DrawFacts pending(Long goodsId, DrawWait wait) {
        if (goodsId != null) {
            DrawFacts d = open.get(goodsId);
            return d != null && wait.sameDraw(d) ? d : null;
        }
        for (DrawFacts d : open.values()) if (wait.sameDraw(d)) return d;
        return null;
    }

    /** Whether {@code atMs} is inside the registration window of the goods' sale (before its start). */
    public boolean registering(long goodsId, long atMs) {
        DrawFacts d = open.get(goodsId);
        return d != null
                && Fairness.REGISTRATION.wire().equals(d.fairness())
                && atMs >= d.windowStartAt().toEpochMilli()
                && atMs < d.windowEndAt().toEpochMilli();
    }
}
