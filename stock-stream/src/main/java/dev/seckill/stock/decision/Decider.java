package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.stock.ledger.FoldStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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
        public Input(String key, byte[] raw, int partition, long offset) {
            this(key, raw, partition, offset, -1);
        }

        String position() {
            return partition + ":" + offset;
        }
    }

    /** A call waiting for its batch's round trip, with the index of the input it answers. */
    private record Waiting(int index, Step.Call call) {}

    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;
    private final ShortCircuitLog shortCircuits;
    private final SoldOutGate gate = new SoldOutGate();
    private final SaleOperations operations;
    private final PurchaseDecisions purchases;

    /** A decider without the sold-out short-circuit: every purchase is a Lua call. */
    public Decider(StockScripts scripts, Clock clock, FoldStore folds) {
        this(scripts, clock, folds, null, () -> {});
    }

    /**
     * @param shortCircuits  where in-memory decisions are kept; null turns the sold-out short-circuit off
     * @param onShortCircuit called for each purchase answered without Redis (a metric)
     */
    public Decider(
            StockScripts scripts,
            Clock clock,
            FoldStore folds,
            ShortCircuitLog shortCircuits,
            Runnable onShortCircuit) {
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
        this.operations = new SaleOperations(scripts, clock, folds, gate);
        this.shortCircuits = shortCircuits;
        this.purchases = new PurchaseDecisions(scripts, clock, folds, operations, gate, shortCircuits, onShortCircuit);
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
            if (parsed instanceof ParsedCommand.Valid v
                    && v.command() instanceof Restore r
                    && keyMatches(in.key(), r.goodsId())) {
                run(waiting, out, inputs.get(Math.max(0, i - 1))); // the restore needs the fold of everything before it
                gate.forget(r.goodsId());
                out[i] = operations.restore(r, in.position());
                continue;
            }
            if (parsed instanceof ParsedCommand.Valid v
                    && (v.command() instanceof OpenSale || v.command() instanceof CloseSale)
                    && !waiting.isEmpty()) {
                // a forced open judges the holdings after everything before it; and a purchase before an open or a
                // close must be decided before it runs: one answered NOSALE (WipedSales) is called again in its
                // completion, which must not find the sale this open makes or miss the close
                run(waiting, out, inputs.get(i - 1));
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
            List<LuaResult> results =
                    scripts.callAll(waiting.stream().map(w -> w.call().call()).toList());
            for (int j = 0; j < waiting.size(); j++) {
                out[waiting.get(j).index()] = waiting.get(j).call().complete().apply(results.get(j));
            }
            waiting.clear();
        }
        if (shortCircuits != null) gate.settle(scripts::snapshot, last.partition(), last.offset());
    }

    /** What a record needs: decided here (DLQ, stored or in-memory answers) or a Lua call. */
    private Step step(ParsedCommand parsed, Input in) {
        if (parsed instanceof ParsedCommand.Poison p) return Step.decided(Decision.dlq(p.reason()));
        if (parsed instanceof ParsedCommand.InvalidPurchase ip) {
            if (!keyMatches(in.key(), ip.goodsId())) return Step.decided(keyMismatch(in.key(), ip.goodsId()));
            return purchases.invalidStep(ip, in);
        }
        Command command = ((ParsedCommand.Valid) parsed).command();
        if (!keyMatches(in.key(), command.goodsId())) return Step.decided(keyMismatch(in.key(), command.goodsId()));
        if (command instanceof Purchase p) return purchases.step(p, in);
        gate.unsettle(command.goodsId(), null);
        if (command instanceof Release rel)
            return new Step.Call(scripts.releaseCall(rel, in.position()), r -> operations.released(rel, r));
        if (command instanceof Pay pay)
            return new Step.Call(scripts.payCall(pay, in.position()), r -> operations.paid(pay, r));
        if (command instanceof OpenSale o) {
            if (in.timestamp() >= 0 && !o.endAt().isAfter(Instant.ofEpochMilli(in.timestamp())))
                return Step.decided(SaleOperations.endedBeforeIssued(o, in.timestamp()));
            int holders = o.force() ? folds.holdings(o.goodsId()).size() : 0;
            if (holders > 0) return Step.decided(SaleOperations.forcedOverLiveBuyers(o, holders));
            long expireAt = scripts.lifetime().expireAt(o.endAt().toEpochMilli());
            return new Step.Call(
                    scripts.openSaleCall(o, in.position(), expireAt),
                    r -> operations.opened(o, r, expireAt, in.offset()));
        }
        CloseSale c = (CloseSale) command;
        return new Step.Call(scripts.closeSaleCall(c, in.position()), r -> operations.closed(c, r));
    }

    private static boolean keyMatches(String key, long goodsId) {
        return Long.toString(goodsId).equals(key);
    }

    private static Decision keyMismatch(String key, long goodsId) {
        return Decision.dlq(
                "record key '" + key + "' is not the goodsId " + goodsId + " (commands are keyed by goodsId)");
    }
}
