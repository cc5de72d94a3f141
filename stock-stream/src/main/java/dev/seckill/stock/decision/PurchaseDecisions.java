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
import java.util.Optional;

/**
 * The decisions of purchases: a requestId the goods has a decision for is answered from it (its own record again, a
 * retry nothing, a reuse for another purchase REJECTED invalid: {@link ReusedIds}); else the {@link SoldOutGate}'s
 * answer from the fold for a sold-out goods, or a Lua call. Every decision is kept in the fold's decisions (Redis keeps
 * none), and a SUCCESS moves the fold by its delta and records the holding (a DEDUCTED ledger entry).
 */
final class PurchaseDecisions {
    /** What a purchase is, for its decision: the command's fields, valid or not. */
    private record Asked(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt) {
        String payload() {
            return StoredDecision.purchasePayload(userId, quantity);
        }
    }

    /** A bucket's purchase parked until units come (docs/decisions.md, "Stock buckets"): its id claimed, undecided. */
    static final String PARKED = "PARKED";
    /** A park older than this lost its hop: a retry of the purchase decides it (parks last a few hundred ms). */
    static final java.time.Duration PARKED_FOR_AT_MOST = java.time.Duration.ofMinutes(1);

    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;
    private final SoldOutGate gate;
    private final boolean shortCircuit;
    private final Runnable onShortCircuit;

    PurchaseDecisions(
            StockScripts scripts,
            Clock clock,
            FoldStore folds,
            SoldOutGate gate,
            boolean shortCircuit,
            Runnable onShortCircuit) {
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
        this.gate = gate;
        this.shortCircuit = shortCircuit;
        this.onShortCircuit = onShortCircuit;
    }

    /** A purchase with a usable requestId but bad fields: REJECTED invalid, kept and deduplicated like any other. */
    Step invalidStep(ParsedCommand.InvalidPurchase ip, Decider.Input in) {
        Asked a = new Asked(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(), ip.acceptedAt());
        Optional<Decision> known = known(a, in);
        if (known.isPresent()) return Step.decided(known.get());
        gate.unsettle(ip.goodsId());
        return new Step.Call(
                scripts.invalidPurchaseCall(
                        ip.requestId(),
                        ip.goodsId(),
                        ip.userId(),
                        ip.quantity(),
                        ip.acceptedAt(),
                        KeysAt.unchained(in.offset())),
                r -> Decision.of(kept(a, r, in)));
    }

    /**
     * A purchase: its decision from the goods' decisions if it has one there, else the gate's answer for a sold-out
     * goods, else a Lua call.
     */
    Step step(Purchase p, Decider.Input in) {
        return step(p, in, null);
    }

    /**
     * A purchase in a bucket of a bucketed goods ({@code parking} not null): no sold-out gate (a bucket's 0 is not the
     * goods'), and a SOLD_OUT the bucket's units cannot cover is {@code parking}'s to answer — a park is not a decision,
     * so nothing is kept and the purchase is decided when it comes back.
     */
    Step step(Purchase p, Decider.Input in, java.util.function.Function<LuaResult, Decision> parking) {
        Asked a = new Asked(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt());
        Optional<Decision> known = known(a, in);
        if (known.isPresent()) return Step.decided(known.get());
        if (parking != null) {
            return new Step.Call(scripts.purchaseCall(p, KeysAt.unchained(in.offset())), answer -> {
                Decision parked = "SOLD_OUT".equals(answer.code()) ? parking.apply(answer) : null;
                if (parked == null) return purchased(p, answer, kept(a, answer, in));
                // the id stays claimed while it waits: a reuse is refused, a retry waits for the answer
                folds.decide(
                        a.goodsId(),
                        FoldStore.purchaseKey(a.requestId()),
                        StoredDecision.of(
                                        new LuaResult(PARKED, "", answer.stockAfter(), LuaResult.Status.NEW),
                                        in.position(),
                                        a.payload(),
                                        clock.millis())
                                .encode());
                return parked;
            });
        }
        if (shortCircuit) {
            LuaResult answer = gate.judge(p);
            if (answer != null) {
                onShortCircuit.run();
                return Step.decided(Decision.of(kept(a, answer, in)));
            }
        }
        gate.unsettle(p.goodsId());
        return new Step.Call(scripts.purchaseCall(p, KeysAt.unchained(in.offset())), answer -> {
            gate.purchased(p, answer);
            return purchased(p, answer, kept(a, answer, in));
        });
    }

    /** A purchase answered without a call of its own ({@link DrawnBuckets}: no units left at home): kept, emitted. */
    Decision answered(Purchase p, LuaResult r, Decider.Input in) {
        return Decision.of(
                kept(new Asked(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt()), r, in));
    }

    /**
     * The decision of a requestId the goods already has one for (its own record again, a retry {@link Decision#NOTHING},
     * a reuse REJECTED invalid); empty when it has none.
     */
    private Optional<Decision> known(Asked a, Decider.Input in) {
        String stored = folds.decision(a.goodsId(), FoldStore.purchaseKey(a.requestId()));
        if (stored == null) return Optional.empty();
        StoredDecision decision = StoredDecision.parse(stored);
        String reuse = ReusedIds.why(a.requestId(), a.payload(), decision, folds.get(a.goodsId()), in.partition());
        if (reuse != null)
            return Optional.of(Decision.of(
                    outcome(a, new LuaResult("REJECTED", "invalid", decision.stockAfter(), LuaResult.Status.NEW), in)
                            .withDetail(reuse)));
        // the parked purchase back: decided now; a retry of it: answered then — or now, once the park is so old that
        // its hop
        // was lost (sent to the DLQ: a seal that did not verify, partitions added); the hop, if it comes, is a retry
        if (PARKED.equals(decision.result())) {
            boolean back = in.hop() != null && in.hop().since() >= 0;
            boolean lost = clock.millis() - decision.decidedAt() > PARKED_FOR_AT_MOST.toMillis();
            return back || lost ? Optional.empty() : Optional.of(Decision.NOTHING);
        }
        if (!decision.position().equals(in.position()))
            return Optional.of(Decision.NOTHING); // a retry: its answer is out already
        return Optional.of(Decision.of(
                naming(outcome(a, decision.answer(LuaResult.Status.REPLAY), in), decision.heldRequestId())));
    }

    /**
     * Keeps a new decision among the goods' decisions (it commits with the outcome); returns its outcome. A DUPLICATE
     * names the purchase the buyer holds, as the fold says (kept with it, so a replay names the same one).
     */
    private Outcome kept(Asked a, LuaResult r, Decider.Input in) {
        String held = heldRequestId(a, r);
        folds.decide(
                a.goodsId(),
                FoldStore.purchaseKey(a.requestId()),
                StoredDecision.of(r, in.position(), a.payload(), clock.millis(), held)
                        .encode());
        return naming(outcome(a, r, in), held);
    }

    /** The outcome naming the purchase the buyer holds, when one is named (no copy of the rest otherwise). */
    private static Outcome naming(Outcome o, String heldRequestId) {
        return heldRequestId == null ? o : o.withHeldRequestId(heldRequestId);
    }

    /** On a DUPLICATE, the requestId of what the buyer holds of the goods; null otherwise, or when they hold nothing. */
    private String heldRequestId(Asked a, LuaResult r) {
        if (!"DUPLICATE".equals(r.code())) return null;
        GoodsFold.Holding holding = folds.holding(a.goodsId(), a.userId());
        return holding == null ? null : holding.requestId();
    }

    private Decision purchased(Purchase p, LuaResult r, Outcome outcome) {
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
            GoodsFold fold = folds.get(p.goodsId());
            if (fold == null) fold = new GoodsFold();
            ledger = ledger.withPurchase(outcome.offset(), p.acceptedAt(), fold.openOffset);
            fold.stock -= p.quantity(); // by delta, as the ledger entry says
            folds.put(p.goodsId(), fold);
            folds.hold(p.goodsId(), p.userId(), new GoodsFold.Holding(p.quantity(), p.requestId(), r.stockAfter()));
        }
        return Decision.of(outcome, ledger);
    }

    private Outcome outcome(Asked a, LuaResult r, Decider.Input in) {
        OutcomeKind kind = OutcomeKind.valueOf(r.code());
        return Outcome.of(
                a.requestId(),
                a.goodsId(),
                a.userId(),
                a.quantity(),
                kind,
                r.detail().isEmpty() ? null : r.detail(),
                r.stockAfter(),
                a.acceptedAt(),
                clock.instant(),
                in.partition(),
                in.offset());
    }
}
