package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Restore;
import dev.seckill.stock.bucket.BucketTerms;
import dev.seckill.stock.bucket.Hop;
import dev.seckill.stock.draw.DrawTerms;
import dev.seckill.stock.ledger.FoldStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides command records: parse, check the key, look the id up among the goods' decisions, then one Lua call each,
 * and turn each answer into an outcome and/or a ledger entry, in input order. A batch of records is decided with one
 * pipelined round trip to Redis (split before a {@code restore}, which needs the fold of everything before it). Every
 * call carries the marker its goods' keys must have by the fold ({@link KeyMarkers}); a call that finds another is
 * made again after the keys are rebuilt from the fold ({@link Rebuilds}). A purchase of a sold-out goods is answered
 * by the {@link SoldOutGate} from the fold when it can be. What must survive a crash is in the caller's Kafka
 * transaction (the fold — window and units, holdings, every decision — and the outputs); Redis is a cache of the fold.
 */
public final class Decider {
    /**
     * One command record to decide. {@code timestamp} is the record's own time (epoch ms; its producer's CreateTime,
     * kept by a drill's copy), the instant an {@code open_sale} was issued; negative when unknown. {@code hop}: the
     * stream's own hop between a goods' buckets, null for a client's record. {@code drawEntry}: one of a drawn window's
     * entries, passed on by its release in the draw's order (its position is where it was held).
     */
    public record Input(
            String key, byte[] raw, int partition, long offset, long timestamp, Hop hop, boolean drawEntry) {
        public Input(String key, byte[] raw, int partition, long offset) {
            this(key, raw, partition, offset, -1);
        }

        /** A record a client wrote (not one of the stream's own hops between a goods' buckets). */
        public Input(String key, byte[] raw, int partition, long offset, long timestamp) {
            this(key, raw, partition, offset, timestamp, null);
        }

        public Input(
                String key, byte[] raw, int partition, long offset, long timestamp, Hop hop) { // not a draw's entry
            this(key, raw, partition, offset, timestamp, hop, false);
        }

        String position() {
            return partition + ":" + offset;
        }
    }

    /** A call waiting for its batch's round trip, with the index of the input it answers and where it expects the keys. */
    private record Waiting(int index, Step.Call call, KeysAt at, boolean opens) {}

    private final StockScripts scripts;
    private final BatchFolds folds;
    private final boolean shortCircuit;
    private final SoldOutGate gate = new SoldOutGate();
    private final KeyMarkers markers;
    private final Rebuilds rebuilds;
    private final SaleOperations operations;
    private final PurchaseDecisions purchases;
    private final BucketSteps buckets;
    /** What to run while the current batch's first round trip is out; null once run (or when there is nothing). */
    private Runnable whileWaiting;
    /** The ids (goods and requestId or opId) of the current batch's commands not yet decided. */
    private final Set<String> pending = new HashSet<>();

    /** A decider without the sold-out short-circuit: every purchase not decided before is a Lua call. */
    public Decider(StockScripts scripts, Clock clock, FoldStore folds) {
        this(scripts, clock, folds, false, () -> {});
    }

    /**
     * @param shortCircuit   whether purchases of a sold-out goods may be answered from the fold without Redis
     * @param onShortCircuit called for each purchase answered without Redis (a metric)
     */
    public Decider(StockScripts scripts, Clock clock, FoldStore folds, boolean shortCircuit, Runnable onShortCircuit) {
        this(scripts, clock, folds, shortCircuit, onShortCircuit, DrawTerms.OFF);
    }

    /** @param draw how drawn sales are drawn ({@link DrawTerms#OFF}: drawn opens are refused) */
    public Decider(
            StockScripts scripts,
            Clock clock,
            FoldStore folds,
            boolean shortCircuit,
            Runnable onShortCircuit,
            DrawTerms draw) {
        this(scripts, clock, folds, shortCircuit, onShortCircuit, draw, BucketTerms.OFF);
    }

    /** @param buckets how bucketed goods are run ({@link BucketTerms#OFF}: opens with buckets are refused) */
    public Decider(
            StockScripts scripts,
            Clock clock,
            FoldStore folds,
            boolean shortCircuit,
            Runnable onShortCircuit,
            DrawTerms draw,
            BucketTerms buckets) {
        this.scripts = scripts;
        this.folds = new BatchFolds(folds);
        this.shortCircuit = shortCircuit;
        this.markers = new KeyMarkers(this.folds, scripts.lifetime());
        this.rebuilds = new Rebuilds(scripts, this.folds, markers);
        this.operations = new SaleOperations(scripts, clock, this.folds, gate, draw);
        this.purchases = new PurchaseDecisions(scripts, clock, this.folds, gate, shortCircuit, onShortCircuit);
        this.buckets = new BucketSteps(buckets, scripts, clock, this.folds, purchases, operations);
    }

    /** Decides records in order; the i-th decision belongs to the i-th input. */
    public List<Decision> decideAll(List<Input> inputs) {
        return decideAll(inputs, null);
    }

    /**
     * Decides records in order, running {@code whileWaiting} (when not null) on this thread while Redis answers the
     * batch's first round trip — or before returning, when the batch needs none. It must not touch the folds.
     */
    public List<Decision> decideAll(List<Input> inputs, Runnable whileWaiting) {
        this.whileWaiting = whileWaiting;
        List<Decision> decided;
        try {
            decided = decideInOrder(inputs);
        } catch (RuntimeException | Error e) {
            this.whileWaiting = null;
            throw e;
        }
        Runnable notRun = this.whileWaiting;
        this.whileWaiting = null;
        if (notRun != null) notRun.run();
        return decided;
    }

    private List<Decision> decideInOrder(List<Input> inputs) {
        folds.discard();
        Decision[] out = new Decision[inputs.size()];
        List<Waiting> waiting = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            Input in = inputs.get(i);
            ParsedCommand parsed = CommandCodec.decode(in.raw());
            if (parsed instanceof ParsedCommand.Valid v
                    && v.command() instanceof Restore r
                    && CommandIds.keyMatches(in.key(), r.goodsId())) {
                run(waiting, out, inputs.get(Math.max(0, i - 1))); // the restore needs the fold of everything before it
                gate.forget(r.goodsId());
                out[i] = buckets.restored(r, in, operations.restore(r, in));
                continue;
            }
            // a borrow or a transfer reads and moves the bucket's fold: after everything before it
            if (in.hop() != null
                    && (in.hop().kind() == Hop.Kind.BORROW || in.hop().kind() == Hop.Kind.TRANSFER_IN)
                    && !waiting.isEmpty()) run(waiting, out, inputs.get(i - 1));
            if (parsed instanceof ParsedCommand.Valid v
                    && (v.command() instanceof OpenSale || v.command() instanceof CloseSale)
                    && !waiting.isEmpty()) {
                // a forced open judges the holdings after everything before it, and the gate forgets the goods after
                run(waiting, out, inputs.get(i - 1));
            }
            // the same id twice in one batch (or one buyer's next request as a draw passes them on): the first is
            // decided
            // before the second is looked up (a retry, a reuse, the buyer a drawn goods' home last gave units to)
            if (CommandIds.repeated(pending, parsed, in)) run(waiting, out, inputs.get(i - 1));
            CommandIds.add(pending, parsed, in);
            Step step = step(parsed, in);
            if (step instanceof Step.Call c) {
                boolean opens = parsed instanceof ParsedCommand.Valid v && v.command() instanceof OpenSale;
                KeysAt at = markers.next(c.call().goodsId(), in.offset(), opens);
                waiting.add(new Waiting(i, new Step.Call(c.call().expecting(at.expected()), c.complete()), at, opens));
                // the records after an open are judged against the new sale (its open offset, its window): decide it
                // now
                if (opens) run(waiting, out, in);
            } else out[i] = ((Step.Decided) step).decision();
        }
        if (!inputs.isEmpty()) run(waiting, out, inputs.get(inputs.size() - 1));
        folds.flush();
        return List.of(out);
    }

    /**
     * Runs the waiting Lua calls (one pipeline) and completes their decisions in order: a call answered STALE, and every
     * later call of its goods in the batch, is made again once the keys are rebuilt from the fold. Then the gate settles.
     */
    private void run(List<Waiting> waiting, Decision[] out, Input last) {
        if (!waiting.isEmpty()) {
            List<ScriptCall> calls = waiting.stream().map(w -> w.call().call()).toList();
            Runnable overlap = whileWaiting;
            whileWaiting = null;
            List<LuaResult> results = overlap == null ? scripts.callAll(calls) : scripts.callAll(calls, overlap);
            Set<Long> rebuilt = new HashSet<>();
            for (int j = 0; j < waiting.size(); j++) {
                Waiting w = waiting.get(j);
                long goodsId = w.call().call().goodsId();
                LuaResult r = results.get(j);
                KeysAt at = w.at();
                if (r.stale() || rebuilt.contains(goodsId)) {
                    Rebuilds.Answer again = rebuilds.again(w.call().call(), at, r, rebuilt.add(goodsId));
                    r = again.result();
                    at = again.at();
                }
                out[w.index()] = w.call().complete().apply(r);
                markers.applied(goodsId, at.leaves(w.opens()));
            }
            waiting.clear();
        }
        pending.clear();
        markers.clear();
        if (shortCircuit) gate.settle(goodsId -> SaleSnapshot.of(folds, goodsId));
    }

    /**
     * Checks the keys of every goods the sold-out gate answers from the fold (no Lua call meets them meanwhile) and
     * rebuilds those Redis lost writes of (docs/invariants.md, "The fold is the truth", item 4). Called between batches
     * by the task's wall-clock punctuator.
     */
    public void verifyGate() {
        if (!shortCircuit) return;
        folds.discard();
        for (long goodsId : gate.armed()) rebuilds.verify(goodsId);
        folds.discard();
    }

    /** What a record needs: decided here (DLQ, stored or in-memory answers) or a Lua call. */
    private Step step(ParsedCommand parsed, Input in) {
        Step bucketed = buckets.step(parsed, in);
        if (bucketed != null) return bucketed;
        if (parsed instanceof ParsedCommand.Poison p) return Step.decided(Decision.dlq(p.reason()));
        if (parsed instanceof ParsedCommand.InvalidPurchase ip) {
            if (!CommandIds.keyMatches(in.key(), ip.goodsId()))
                return Step.decided(CommandIds.keyMismatch(in.key(), ip.goodsId()));
            return purchases.invalidStep(ip, in);
        }
        Command command = ((ParsedCommand.Valid) parsed).command();
        if (!CommandIds.keyMatches(in.key(), command.goodsId()))
            return Step.decided(CommandIds.keyMismatch(in.key(), command.goodsId()));
        if (command instanceof Purchase p) return purchases.step(p, in);
        return operations.step(command, in);
    }
}
