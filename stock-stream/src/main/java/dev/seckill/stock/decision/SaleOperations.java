package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Clock;
import java.time.Instant;

/**
 * The decisions of a goods' operations (open, close, release, pay, restore): each Lua answer turned into a ledger entry
 * (or the DLQ with the reason), keeping the ledger fold in step by deltas. Purchases are {@link Decider}'s.
 */
final class SaleOperations {
    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;
    private final SoldOutGate gate;

    SaleOperations(StockScripts scripts, Clock clock, FoldStore folds, SoldOutGate gate) {
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
        this.gate = gate;
    }

    Decision released(Release rel, LuaResult r) {
        gate.released(rel.goodsId(), rel.userId(), r);
        if (!r.emits()) return Decision.NOTHING;
        if ("PAID".equals(r.code())) return releaseOfPaid(rel);
        if (!"RELEASED".equals(r.code())) return Decision.NOTHING;
        GoodsFold fold = fold(rel.goodsId());
        // by delta: a REPLAY answers the stockAfter of the first run, which is not the stock now when a crash replay
        // decided something between differently (an in-memory SOLD_OUT of the first run is a Lua SUCCESS on replay)
        fold.stock += r.detailAsLong();
        folds.put(rel.goodsId(), fold);
        folds.release(rel.goodsId(), rel.userId());
        return new Decision(
                null,
                LedgerEntry.of(
                        rel.opId(),
                        rel.goodsId(),
                        LedgerType.RELEASED,
                        r.detailAsLong(),
                        rel.userId(),
                        rel.requestId(),
                        rel.orderId(),
                        r.stockAfter(),
                        clock.instant()),
                null);
    }

    /**
     * An open_sale whose window had ended when it was issued (judged by the record's own time, never the wall clock,
     * so a drill replaying a recording decides it as the recording did): nothing could ever be bought in it.
     */
    static Decision endedBeforeIssued(OpenSale o, long issuedAt) {
        return Decision.dlq(
                "open_sale refused: its window ended at " + o.endAt() + ", before the command was issued at "
                        + Instant.ofEpochMilli(issuedAt) + " (the record's timestamp); send a window that ends later");
    }

    /**
     * A forced open while buyers of the previous sale still hold units: their orders (unpaid, or paid) would lose
     * the units they hold, and a payment after it would sell a unit the new stock does not count. A goods holds one
     * sale at a time: release or let the previous sale's orders end; paid ones end with its keys' lifetime.
     */
    static Decision forcedOverLiveBuyers(OpenSale o, int holders) {
        return Decision.dlq(
                "open_sale refused: " + holders + " buyers of the previous sale of goods " + o.goodsId()
                        + " still hold units (their orders are unpaid or paid); a forced open would orphan them. Let them be"
                        + " released (payment timeout, cancel) or wait until the previous sale's keys expire, then open without force");
    }

    Decision opened(OpenSale o, LuaResult r, long expireAt, long offset) {
        gate.forget(o.goodsId());
        if (!r.emits()) return Decision.NOTHING;
        if ("REFUSED".equals(r.code())) {
            return Decision.dlq("open_sale refused: keys of an earlier sale of goods " + o.goodsId()
                    + " are still in Redis (" + r.stockAfter() + " units left); send it with force=true to overwrite");
        }
        GoodsFold fold = new GoodsFold();
        GoodsFold previous = folds.get(o.goodsId());
        // the OPENED quantity is the change of the units left as the ledger counts them (not as Redis had them: an
        // expired or lost earlier sale has no keys left, yet its units are still in the ledger's fold)
        long delta = o.stock() - (previous == null ? 0 : previous.stock);
        fold.opened = (previous == null ? 0 : previous.opened) + delta;
        fold.startAt = o.startAt().toEpochMilli();
        fold.endAt = o.endAt().toEpochMilli();
        fold.perUserLimit = o.perUserLimit();
        fold.stock = o.stock();
        fold.expireAt = expireAt;
        folds.put(o.goodsId(), fold);
        // a new sale starts without buyers: a forced open deleted them in Redis, and an open over an expired sale found
        // none
        folds.releaseAll(o.goodsId());
        return new Decision(
                null,
                LedgerEntry.of(
                                o.opId(),
                                o.goodsId(),
                                LedgerType.OPENED,
                                delta,
                                null,
                                null,
                                null,
                                r.stockAfter(),
                                clock.instant())
                        .withKeysExpireAt(Instant.ofEpochMilli(expireAt))
                        .withCommandOffset(offset),
                null);
    }

    Decision closed(CloseSale c, LuaResult r) {
        gate.forget(c.goodsId());
        if (!r.emits() || !"CLOSED".equals(r.code())) return Decision.NOTHING;
        GoodsFold fold = fold(c.goodsId());
        fold.status = "closed";
        folds.put(c.goodsId(), fold);
        return new Decision(
                null,
                LedgerEntry.of(
                        c.opId(), c.goodsId(), LedgerType.CLOSED, 0, null, null, null, r.stockAfter(), clock.instant()),
                null);
    }

    Decision restore(Restore restore, String position) {
        GoodsFold fold = folds.get(restore.goodsId());
        if (fold == null) {
            return Decision.dlq(
                    "restore refused: the ledger has no sale of goods " + restore.goodsId() + " to restore from");
        }
        long keysEnd = fold.expireAt > 0
                ? fold.expireAt
                : fold.endAt + scripts.lifetime().grace().toMillis();
        if (scripts.lifetime().retired(keysEnd)) {
            // the sale is over and its keys have gone as they should: there is nothing to restore (and its holdings
            // were retired with them), so a restore would only bring an ended sale back for another grace
            return Decision.dlq("restore refused: the sale of goods " + restore.goodsId()
                    + " ended and its keys expired at " + Instant.ofEpochMilli(keysEnd) + "; open a new sale instead");
        }
        long expireAt = scripts.lifetime().expireAt(fold.endAt);
        LuaResult r = scripts.restore(restore, fold, folds.holdings(restore.goodsId()), position, expireAt);
        if (!r.emits()) return Decision.NOTHING;
        fold.expireAt =
                expireAt; // on a crash replay, Redis keeps the first run's instant: a crash's length apart at most
        folds.put(restore.goodsId(), fold);
        return new Decision(
                null,
                LedgerEntry.of(
                                restore.opId(),
                                restore.goodsId(),
                                LedgerType.RESTORED,
                                0,
                                null,
                                null,
                                null,
                                r.stockAfter(),
                                clock.instant())
                        .withKeysExpireAt(Instant.ofEpochMilli(fold.expireAt)),
                null);
    }

    /** The fold of a goods; an empty one (to be filled) when the ledger has none yet. */
    GoodsFold fold(long goodsId) {
        GoodsFold fold = folds.get(goodsId);
        return fold == null ? new GoodsFold() : fold;
    }

    /**
     * A {@code pay}: PAID marks the holding paid (in the fold too, so a restore marks it again in Redis); REFUSED means
     * the buyer no longer held that purchase when the payment reached the goods' serial order. Both are ledger entries
     * without a stock change, for the order-writer to end the payment and the order.
     */
    Decision paid(Pay p, LuaResult r) {
        if (!r.emits()) return Decision.NOTHING;
        boolean paid = "PAID".equals(r.code());
        if (paid) {
            GoodsFold.Holding h = folds.holdings(p.goodsId()).get(p.userId());
            if (h != null && p.requestId().equals(h.requestId())) folds.hold(p.goodsId(), p.userId(), h.markedPaid());
        }
        return new Decision(
                null,
                LedgerEntry.of(
                        p.opId(),
                        p.goodsId(),
                        paid ? LedgerType.PAID : LedgerType.PAYMENT_REFUSED,
                        0,
                        p.userId(),
                        p.requestId(),
                        p.orderId(),
                        r.stockAfter(),
                        clock.instant()),
                null);
    }

    /** A release of a purchase marked paid: refused (nothing given back), and shown on the DLQ with the reason. */
    static Decision releaseOfPaid(Release rel) {
        return Decision.dlq("release refused: the purchase " + (rel.requestId() == null ? "" : rel.requestId() + " ")
                + "that user " + rel.userId() + " holds of goods " + rel.goodsId()
                + " is paid; a paid order is never released"
                + " (docs/invariants.md, invariant 7): refund it through the payment provider, not by a release");
    }
}
