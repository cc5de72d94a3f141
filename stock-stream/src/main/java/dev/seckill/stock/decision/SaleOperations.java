package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.stock.draw.DrawTerms;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Function;

/**
 * The decisions of a goods' operations (open, close, release, pay, restore). An opId the goods already has a decision
 * for emits nothing (a retry). Otherwise an open_sale that ended before it was issued, or a forced open over live
 * buyers, goes to the DLQ with no Lua call; every other operation is one Lua call, kept among the goods' decisions,
 * whose answer becomes a ledger entry, a DLQ record with the reason (an open refused over an earlier sale's keys, a
 * release of a paid order) or nothing (a release or close that found nothing to do). The fold follows the answer: a
 * release adds its units back, an open sets the sale anew, a close marks it closed. A restore is decided alone, not as
 * a step of a batch. Purchases are {@link PurchaseDecisions}'.
 */
final class SaleOperations {
    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;
    private final SoldOutGate gate;
    private final DrawTerms draw;

    SaleOperations(StockScripts scripts, Clock clock, FoldStore folds, SoldOutGate gate, DrawTerms draw) {
        this.draw = draw;
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
        this.gate = gate;
    }

    /** An operation's step: nothing for an opId already decided, a DLQ answer, or its Lua call. */
    Step step(Command command, Decider.Input in) {
        String opId = opId(command);
        if (folds.decision(command.goodsId(), FoldStore.operationKey(opId)) != null)
            return Step.decided(Decision.NOTHING);
        gate.unsettle(command.goodsId());
        KeysAt at = KeysAt.unchained(in.offset());
        if (command instanceof Release rel)
            return call(scripts.releaseCall(rel, at), opId, in, r -> released(rel, r, in.offset()));
        if (command instanceof Pay pay) return call(scripts.payCall(pay, at), opId, in, r -> paid(pay, r));
        if (command instanceof OpenSale o) {
            if (o.fairness().drawn() && !draw.drawing()) return Step.decided(OperationRefusals.noDrawBeacon(o));
            if (in.timestamp() >= 0 && !o.endAt().isAfter(Instant.ofEpochMilli(in.timestamp())))
                return Step.decided(OperationRefusals.endedBeforeIssued(o, in.timestamp()));
            if (o.fairness().drawn()
                    && in.timestamp() >= 0
                    && o.startAt().toEpochMilli() - in.timestamp() > OpenSale.MAX_DRAW_LEAD_MS)
                return Step.decided(OperationRefusals.drawStartsTooLate(o, in.timestamp()));
            int holders = o.force() ? folds.holdings(o.goodsId()).size() : 0;
            if (holders > 0) return Step.decided(OperationRefusals.forcedOverLiveBuyers(o, holders));
            long expireAt = scripts.lifetime().expireAt(o.endAt().toEpochMilli());
            return call(scripts.openSaleCall(o, at, expireAt), opId, in, r -> opened(o, r, expireAt, in.offset()));
        }
        CloseSale c = (CloseSale) command;
        return call(scripts.closeSaleCall(c, at), opId, in, r -> closed(c, r));
    }

    private Step call(ScriptCall call, String opId, Decider.Input in, Function<LuaResult, Decision> complete) {
        return new Step.Call(call, r -> {
            folds.decide(
                    call.goodsId(),
                    FoldStore.operationKey(opId),
                    StoredDecision.of(r, in.position(), "", clock.millis()).encode());
            return complete.apply(r);
        });
    }

    private static String opId(Command command) {
        if (command instanceof Release rel) return rel.opId();
        if (command instanceof Pay pay) return pay.opId();
        if (command instanceof OpenSale o) return o.opId();
        if (command instanceof Restore r) return r.opId();
        return ((CloseSale) command).opId();
    }

    Decision released(Release rel, LuaResult r, long offset) {
        gate.released(rel.goodsId(), rel.userId(), r);
        if ("PAID".equals(r.code())) return OperationRefusals.releaseOfPaid(rel);
        if (!"RELEASED".equals(r.code())) return Decision.NOTHING;
        GoodsFold fold = fold(rel.goodsId());
        fold.stock += r.detailAsLong(); // by delta, as the ledger entry says
        folds.put(rel.goodsId(), fold);
        folds.release(rel.goodsId(), rel.userId());
        return Decision.of(
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
                                clock.instant())
                        .withCommandOffset(offset)); // a release ends a purchase decided before it, never one after
    }

    Decision opened(OpenSale o, LuaResult r, long expireAt, long offset) {
        gate.forget(o.goodsId());
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
        fold.openOffset = offset;
        fold.previousExpireAt =
                previous == null ? 0 : Math.max(previous.expireAt, previous.previousExpireAt); // earlier sales' ids
        folds.put(o.goodsId(), fold);
        // a new sale starts without buyers: a forced open deleted them in Redis, and an open over an expired sale found
        // none
        folds.releaseAll(o.goodsId());
        LedgerEntry entry = LedgerEntry.of(
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
                .withCommandOffset(offset);
        // a drawn sale's terms are promised before anyone buys: its window, its cutoff, the beacon round it will take
        if (o.fairness().drawn()) entry = entry.withDraw(draw.committed(o));
        return Decision.of(null, entry);
    }

    Decision closed(CloseSale c, LuaResult r) {
        gate.forget(c.goodsId());
        if (!"CLOSED".equals(r.code())) return Decision.NOTHING;
        GoodsFold fold = fold(c.goodsId());
        fold.status = "closed";
        folds.put(c.goodsId(), fold);
        return Decision.of(
                null,
                LedgerEntry.of(
                        c.opId(),
                        c.goodsId(),
                        LedgerType.CLOSED,
                        0,
                        null,
                        null,
                        null,
                        r.stockAfter(),
                        clock.instant()));
    }

    /**
     * A {@code restore} command (an operator's, or the reconciler's for an idle goods whose keys drifted): the goods'
     * keys made what the fold says, now, at this command's position. Run alone (the batch before it is decided first).
     */
    Decision restore(Restore restore, Decider.Input in) {
        if (folds.decision(restore.goodsId(), FoldStore.operationKey(restore.opId())) != null) return Decision.NOTHING;
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
        String marker = Long.toString(in.offset());
        LuaResult r = scripts.restore(restore.goodsId(), marker, fold, folds.holdings(restore.goodsId()), expireAt);
        fold.expireAt = expireAt;
        fold.at = marker;
        folds.put(restore.goodsId(), fold);
        folds.decide(
                restore.goodsId(),
                FoldStore.operationKey(restore.opId()),
                StoredDecision.of(r, in.position(), "", clock.millis()).encode());
        return Decision.of(
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
                        .withKeysExpireAt(Instant.ofEpochMilli(fold.expireAt)));
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
        boolean paid = "PAID".equals(r.code());
        if (paid) {
            GoodsFold.Holding h = folds.holdings(p.goodsId()).get(p.userId());
            if (h != null && p.requestId().equals(h.requestId())) folds.hold(p.goodsId(), p.userId(), h.markedPaid());
        }
        return Decision.of(
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
                        clock.instant()));
    }
}
