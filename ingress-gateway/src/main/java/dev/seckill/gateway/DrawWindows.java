package dev.seckill.gateway;

import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sales whose opening window has not been drawn yet, as the ledger tells the gateway (docs/contracts.md, "The
 * draw"): an OPENED entry with a draw names the window, DRAWN (or a CLOSED, or another OPENED without a draw) ends it.
 * A purchase accepted inside such a window is answered {@code WAITING_DRAW} with when it closes instead of
 * {@code PENDING}: its outcome comes once the window has closed and the draw ran. A registration's window lies before
 * the sale's start: the door lets its purchases through instead of answering {@code not_started}. At most one entry
 * per goods with a drawn sale; a gateway started after the open does not know the window (it says {@code PENDING},
 * and {@code not_started} before a registration's start).
 */
final class DrawWindows {
    private final Map<Long, DrawFacts> open = new ConcurrentHashMap<>();

    void onLedger(LedgerEntry e) {
        if (e.type() == LedgerType.OPENED && e.draw() != null && e.draw().windowEndAt() != null)
            open.put(e.goodsId(), e.draw());
        else if (e.type() == LedgerType.OPENED || e.type() == LedgerType.DRAWN || e.type() == LedgerType.CLOSED)
            open.remove(e.goodsId());
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
