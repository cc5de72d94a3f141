package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Decides command records: parse, check the key, one Lua call each, and turn each answer into an outcome and/or a
 * ledger entry, in input order. A batch of records is decided with one pipelined round trip to Redis (split before
 * a {@code restore}, which needs the fold of everything before it). A purchase of a sold-out goods is answered in
 * memory by the {@link SoldOutGate} when it can be, and logged in the {@link ShortCircuitLog}. What must survive a
 * crash is in Redis (the stored decisions) or in the caller's Kafka transaction (the fold and short-circuit stores,
 * the outputs); the gate is only a cache of Redis and re-arms after a restart.
 */
public final class Decider {
    /**
     * One command record to decide. {@code timestamp} is the record's own time (epoch ms; its producer's CreateTime,
     * kept by a drill's copy), the instant an {@code open_sale} was issued; negative when unknown.
     */
    public record Input(String key, byte[] raw, int partition, long offset, long timestamp) {
        public Input(String key, byte[] raw, int partition, long offset) { this(key, raw, partition, offset, -1); }

        String position() { return partition + ":" + offset; }
    }

    /** What one record needs: nothing more (it is decided) or one Lua call, completed by its answer. */
    private sealed interface Step {
        /** Decided without Redis: the DLQ, a short-circuit answer, a stored in-memory decision. */
        record Decided(Decision decision) implements Step {}

        /** The Lua call to make and what to do with its answer; calls run in input order, one pipeline per batch. */
        record Call(ScriptCall call, Function<LuaResult, Decision> complete) implements Step {}
    }

    /** A call waiting for its batch's round trip, with the index of the input it answers. */
    private record Waiting(int index, Step.Call call) {}

    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;
    private final ShortCircuitLog shortCircuits;
    private final SoldOutGate gate = new SoldOutGate();
    private final SaleOperations operations;
    private final Runnable onShortCircuit;

    /** A decider without the sold-out short-circuit: every purchase is a Lua call. */
    public Decider(StockScripts scripts, Clock clock, FoldStore folds) {
        this(scripts, clock, folds, null, () -> {});
    }

    /**
     * @param shortCircuits  where in-memory decisions are kept; null turns the sold-out short-circuit off
     * @param onShortCircuit called for each purchase answered without Redis (a metric)
     */
    public Decider(StockScripts scripts, Clock clock, FoldStore folds, ShortCircuitLog shortCircuits, Runnable onShortCircuit) {
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
        this.operations = new SaleOperations(scripts, clock, folds, gate);
        this.shortCircuits = shortCircuits;
        this.onShortCircuit = onShortCircuit;
    }

    /** Decides one record. */
    public Decision decide(String key, byte[] raw, int partition, long offset) {
        return decideAll(List.of(new Input(key, raw, partition, offset))).get(0);
    }

    /** Decides records in order; the i-th decision belongs to the i-th input. */
    public List<Decision> decideAll(List<Input> inputs) {
        Decision[] out = new Decision[inputs.size()];
        List<Waiting> waiting = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            Input in = inputs.get(i);
            ParsedCommand parsed = CommandCodec.decode(in.raw());
            if (parsed instanceof ParsedCommand.Valid v && v.command() instanceof Restore r && keyMatches(in.key(), r.goodsId())) {
                run(waiting, out, inputs.get(Math.max(0, i - 1))); // the restore needs the fold of everything before it
                gate.forget(r.goodsId());
                out[i] = operations.restore(r, in.position());
                continue;
            }
            if (parsed instanceof ParsedCommand.Valid v && v.command() instanceof OpenSale o && o.force() && !waiting.isEmpty()) {
                run(waiting, out, inputs.get(i - 1)); // a forced open judges the holdings after everything before it
            }
            Step step = step(parsed, in);
            if (step instanceof Step.Call c) waiting.add(new Waiting(i, c));
            else out[i] = ((Step.Decided) step).decision();
        }
        if (!inputs.isEmpty()) run(waiting, out, inputs.get(inputs.size() - 1));
        return List.of(out);
    }

    /** Runs the waiting Lua calls (one pipeline), completes their decisions, then lets the gate settle. */
    private void run(List<Waiting> waiting, Decision[] out, Input last) {
        if (!waiting.isEmpty()) {
            List<LuaResult> results = scripts.callAll(waiting.stream().map(w -> w.call().call()).toList());
            for (int j = 0; j < waiting.size(); j++) {
                out[waiting.get(j).index()] = waiting.get(j).call().complete().apply(results.get(j));
            }
            waiting.clear();
        }
        if (shortCircuits != null) gate.settle(scripts::snapshot, last.partition(), last.offset());
    }

    private static Step decided(Decision d) { return new Step.Decided(d); }

    /** What a record needs: decided here (DLQ, stored or in-memory answers) or a Lua call. */
    private Step step(ParsedCommand parsed, Input in) {
        if (parsed instanceof ParsedCommand.Poison p) return decided(Decision.dlq(p.reason()));
        if (parsed instanceof ParsedCommand.InvalidPurchase ip) {
            if (!keyMatches(in.key(), ip.goodsId())) return decided(keyMismatch(in.key(), ip.goodsId()));
            Decision logged = fromShortCircuitLog(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(), ip.acceptedAt(), in);
            if (logged != null) return decided(logged);
            gate.unsettle(ip.goodsId(), ip.requestId());
            return new Step.Call(scripts.invalidPurchaseCall(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(), ip.acceptedAt(),
                    in.position()), r -> r.emits() ? new Decision(outcome(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(),
                    ip.acceptedAt(), r, in), null, null) : Decision.NOTHING);
        }
        Command command = ((ParsedCommand.Valid) parsed).command();
        if (!keyMatches(in.key(), command.goodsId())) return decided(keyMismatch(in.key(), command.goodsId()));
        if (command instanceof Purchase p) return purchaseStep(p, in);
        gate.unsettle(command.goodsId(), null);
        if (command instanceof Release rel) return new Step.Call(scripts.releaseCall(rel, in.position()), r -> operations.released(rel, r));
        if (command instanceof Pay pay) return new Step.Call(scripts.payCall(pay, in.position()), r -> operations.paid(pay, r));
        if (command instanceof OpenSale o) {
            if (in.timestamp() >= 0 && !o.endAt().isAfter(Instant.ofEpochMilli(in.timestamp()))) return decided(SaleOperations.endedBeforeIssued(o, in.timestamp()));
            int holders = o.force() ? folds.holdings(o.goodsId()).size() : 0;
            if (holders > 0) return decided(SaleOperations.forcedOverLiveBuyers(o, holders));
            long expireAt = scripts.lifetime().expireAt(o.endAt().toEpochMilli());
            return new Step.Call(scripts.openSaleCall(o, in.position(), expireAt), r -> operations.opened(o, r, expireAt, in.offset()));
        }
        CloseSale c = (CloseSale) command;
        return new Step.Call(scripts.closeSaleCall(c, in.position()), r -> operations.closed(c, r));
    }

    /**
     * A purchase: its decision from the short-circuit log if it has one there, else the gate's in-memory answer for
     * a sold-out goods (logged, so it commits with the outcome), else a Lua call.
     */
    private Step purchaseStep(Purchase p, Input in) {
        if (shortCircuits != null) {
            Decision logged = fromShortCircuitLog(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt(), in);
            if (logged != null) return decided(logged);
            LuaResult answer = gate.judge(p);
            if (answer != null) {
                shortCircuits.put(p.goodsId(), p.requestId(), StoredDecision.of(answer, in.position()).encode());
                onShortCircuit.run();
                return decided(new Decision(outcome(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt(), answer, in),
                        null, null));
            }
            gate.unsettle(p.goodsId(), p.requestId());
        }
        return new Step.Call(scripts.purchaseCall(p, in.position()), r -> {
            gate.purchased(p, r);
            return purchased(p, r, in);
        });
    }

    /** The stored in-memory decision of this request: emitted again for its own record, nothing for a retry. */
    private Decision fromShortCircuitLog(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, Input in) {
        if (shortCircuits == null) return null;
        String stored = shortCircuits.get(goodsId, requestId);
        if (stored == null) return null;
        StoredDecision decision = StoredDecision.parse(stored);
        if (!decision.position().equals(in.position())) return Decision.NOTHING;
        LuaResult r = decision.answer(LuaResult.Status.REPLAY);
        return new Decision(outcome(requestId, goodsId, userId, quantity, acceptedAt, r, in), null, null);
    }

    private Decision purchased(Purchase p, LuaResult r, Input in) {
        if (!r.emits()) return Decision.NOTHING;
        Outcome outcome = outcome(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt(), r, in);
        LedgerEntry ledger = null;
        if (outcome.outcome() == OutcomeKind.SUCCESS) {
            ledger = LedgerEntry.of(LedgerEntry.deductOpId(p.requestId()), p.goodsId(), LedgerType.DEDUCTED, p.quantity(),
                    p.userId(), p.requestId(), null, r.stockAfter(), outcome.decidedAt());
            GoodsFold fold = operations.fold(p.goodsId());
            fold.stock -= p.quantity(); // by delta, as the ledger entry says: never copied from an answer (see released)
            folds.put(p.goodsId(), fold);
            folds.hold(p.goodsId(), p.userId(), new GoodsFold.Holding(p.quantity(), p.requestId(), r.stockAfter()));
        }
        return new Decision(outcome, ledger, null);
    }


    private Outcome outcome(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, LuaResult r, Input in) {
        OutcomeKind kind = OutcomeKind.valueOf(r.code());
        return Outcome.of(requestId, goodsId, userId, quantity, kind, r.detail().isEmpty() ? null : r.detail(), r.stockAfter(),
                acceptedAt, clock.instant(), in.partition(), in.offset());
    }

    private static boolean keyMatches(String key, long goodsId) { return Long.toString(goodsId).equals(key); }

    private static Decision keyMismatch(String key, long goodsId) {
        return Decision.dlq("record key '" + key + "' is not the goodsId " + goodsId + " (commands are keyed by goodsId)");
    }
}
