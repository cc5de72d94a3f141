package dev.seckill.gateway;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lottery sales whose window has not been drawn yet, as the ledger tells the gateway (docs/contracts.md, "The
 * draw"): an OPENED entry with a draw names when its window closes, DRAWN (or a CLOSED, or another OPENED without a
 * draw) ends it. A purchase accepted inside such a window is answered {@code WAITING_DRAW} with that time instead of
 * {@code PENDING}: its outcome comes once the window has closed and the draw ran. At most one entry per goods with a
 * lottery sale; a gateway started after the open does not know the window and answers {@code PENDING}.
 */
final class DrawWindows {
    private final Map<Long, Instant> closing = new ConcurrentHashMap<>();

    void onLedger(LedgerEntry e) {
        if (e.type() == LedgerType.OPENED && e.draw() != null && e.draw().windowEndAt() != null)
            closing.put(e.goodsId(), e.draw().windowEndAt());
        else if (e.type() == LedgerType.OPENED || e.type() == LedgerType.DRAWN || e.type() == LedgerType.CLOSED)
            closing.remove(e.goodsId());
    }

    /** When the window a purchase of {@code goodsId} accepted at {@code acceptedAt} waits for closes; null: none. */
    Instant closesAt(long goodsId, Instant acceptedAt) {
        Instant end = closing.get(goodsId);
        return end != null && acceptedAt.isBefore(end) ? end : null;
    }
}
