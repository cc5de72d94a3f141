package dev.seckill.stock.decision;

import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Clock;
import java.time.Instant;

/**
 * The decisions of purchases: from the short-circuit log, from the {@link SoldOutGate} in memory, or a Lua call; each
 * answer turned into its outcome (and a DEDUCTED ledger entry for a SUCCESS, the fold moved by the delta).
 */
final class PurchaseDecisions {
    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;
    private final SaleOperations operations;
    private final SoldOutGate gate;
    private final ShortCircuitLog shortCircuits;
    private final Runnable onShortCircuit;
    private final WipedSales wiped;

    /** @param shortCircuits where in-memory decisions are kept; null turns the sold-out short-circuit off */
    PurchaseDecisions(
            StockScripts scripts,
            Clock clock,
            FoldStore folds,
            SaleOperations operations,
            SoldOutGate gate,
            ShortCircuitLog shortCircuits,
            Runnable onShortCircuit) {
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
        this.operations = operations;
        this.gate = gate;
        this.shortCircuits = shortCircuits;
        this.onShortCircuit = onShortCircuit;
        this.wiped = new WipedSales(scripts, folds);
    }

    /** A purchase with a usable requestId but bad fields: REJECTED invalid, stored and deduplicated like any other. */
    Step invalidStep(ParsedCommand.InvalidPurchase ip, Decider.Input in) {
        Decision logged =
                fromShortCircuitLog(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(), ip.acceptedAt(), in);
        if (logged != null) return Step.decided(logged);
        gate.unsettle(ip.goodsId(), ip.requestId());
        return new Step.Call(
                scripts.invalidPurchaseCall(
                        ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(), ip.acceptedAt(), in.position()),
                r -> r.emits()
                        ? new Decision(
                                outcome(
                                        ip.requestId(),
                                        ip.goodsId(),
                                        ip.userId(),
                                        ip.quantity(),
                                        ip.acceptedAt(),
                                        r,
                                        in),
                                null,
                                null)
                        : Decision.NOTHING);
    }

    /**
     * A purchase: its decision from the short-circuit log if it has one there, else the gate's in-memory answer for
     * a sold-out goods (logged, so it commits with the outcome), else a Lua call.
     */
    Step step(Purchase p, Decider.Input in) {
        if (shortCircuits != null) {
            Decision logged =
                    fromShortCircuitLog(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt(), in);
            if (logged != null) return Step.decided(logged);
            LuaResult answer = gate.judge(p);
            if (answer != null) {
                shortCircuits.put(
                        p.goodsId(),
                        p.requestId(),
                        StoredDecision.of(answer, in.position()).encode());
                onShortCircuit.run();
                return Step.decided(new Decision(
                        outcome(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt(), answer, in),
                        null,
                        null));
            }
            gate.unsettle(p.goodsId(), p.requestId());
        }
        return new Step.Call(scripts.purchaseCall(p, in.position(), true), answer -> {
            LuaResult r = answer.status() == LuaResult.Status.NOSALE ? wiped.decide(p, in.position()) : answer;
            gate.purchased(p, r);
            return purchased(p, r, in);
        });
    }

    /** The stored in-memory decision of this request: emitted again for its own record, nothing for a retry. */
    private Decision fromShortCircuitLog(
            String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, Decider.Input in) {
        if (shortCircuits == null) return null;
        String stored = shortCircuits.get(goodsId, requestId);
        if (stored == null) return null;
        StoredDecision decision = StoredDecision.parse(stored);
        if (!decision.position().equals(in.position())) return Decision.NOTHING;
        LuaResult r = decision.answer(LuaResult.Status.REPLAY);
        return new Decision(outcome(requestId, goodsId, userId, quantity, acceptedAt, r, in), null, null);
    }

    private Decision purchased(Purchase p, LuaResult r, Decider.Input in) {
        if (!r.emits()) return Decision.NOTHING;
        Outcome outcome = outcome(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt(), r, in);
        LedgerEntry ledger = null;
        if (outcome.outcome() == OutcomeKind.SUCCESS) {
            ledger = LedgerEntry.of(
                    LedgerEntry.deductOpId(p.goodsId(), p.requestId()),
                    p.goodsId(),
                    LedgerType.DEDUCTED,
                    p.quantity(),
                    p.userId(),
                    p.requestId(),
                    null,
                    r.stockAfter(),
                    outcome.decidedAt());
            GoodsFold fold = operations.fold(p.goodsId());
            fold.stock -=
                    p.quantity(); // by delta, as the ledger entry says: never copied from an answer (see released)
            folds.put(p.goodsId(), fold);
            folds.hold(p.goodsId(), p.userId(), new GoodsFold.Holding(p.quantity(), p.requestId(), r.stockAfter()));
        }
        return new Decision(outcome, ledger, null);
    }

    private Outcome outcome(
            String requestId,
            long goodsId,
            long userId,
            int quantity,
            Instant acceptedAt,
            LuaResult r,
            Decider.Input in) {
        OutcomeKind kind = OutcomeKind.valueOf(r.code());
        return Outcome.of(
                requestId,
                goodsId,
                userId,
                quantity,
                kind,
                r.detail().isEmpty() ? null : r.detail(),
                r.stockAfter(),
                acceptedAt,
                clock.instant(),
                in.partition(),
                in.offset());
    }
}
