package dev.seckill.gateway;

import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sales whose opening window has not been drawn yet, as the ledger tells the gateway (docs/contracts.md, "The
 * draw"): an OPENED entry with a draw names the window, DRAWN (or a CLOSED, or another OPENED without a draw) ends it.
 * A purchase accepted inside such a window is answered {@code WAITING_DRAW} with when it closes instead of
 * {@code PENDING}: its outcome comes once the window has closed and the draw ran. A registration's window lies before
 * the sale's start: the door lets its purchases through instead of answering {@code not_started}. At most one entry
 * per goods with a drawn sale. A gateway started after the open learns its window from the ledger's past
 * ({@link DrawWindowsBackfill}, before it listens), which counts only for goods the live ledger has not named since.
 */
final class DrawWindows {
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
    synchronized void pastRead() {
        heardLive = null;
    }

    /** Windows open now. */
    int size() {
        return open.size();
    }

    private static boolean changesWindow(LedgerEntry e) {
        return e.type() == LedgerType.OPENED || e.type() == LedgerType.DRAWN || e.type() == LedgerType.CLOSED;
    }

    private void apply(LedgerEntry e) {
        if (e.type() == LedgerType.OPENED && e.draw() != null && e.draw().windowEndAt() != null)
            open.put(e.goodsId(), e.draw());
        else open.remove(e.goodsId());
    }

    /** When the window a purchase of {@code goodsId} accepted at {@code acceptedAt} waits for closes; null: none. */
    Instant closesAt(long goodsId, Instant acceptedAt) {
        DrawFacts d = open.get(goodsId);
        return d != null && acceptedAt.isBefore(d.windowEndAt()) ? d.windowEndAt() : null;
    }

    /** Whether {@code atMs} is inside the registration window of the goods' sale (before its start). */
    boolean registering(long goodsId, long atMs) {
        DrawFacts d = open.get(goodsId);
        return d != null
                && Fairness.REGISTRATION.wire().equals(d.fairness())
                && atMs >= d.windowStartAt().toEpochMilli()
                && atMs < d.windowEndAt().toEpochMilli();
    }
}
