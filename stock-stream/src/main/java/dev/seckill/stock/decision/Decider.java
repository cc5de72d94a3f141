package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
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
 * a {@code restore}, which needs the fold of everything before it). Holds no state of its own: what must survive a
 * crash is in Redis (the stored decisions) or in the caller's Kafka transaction (the fold store, the outputs).
 */
public final class Decider {
    /** One command record to decide. */
    public record Input(String key, byte[] raw, int partition, long offset) {
        String position() { return partition + ":" + offset; }
    }

    /** A decided-later record: the Lua call to make and what to do with its answer (in input order). */
    private record Plan(ScriptCall call, Function<LuaResult, Decision> complete) {}

    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;

    public Decider(StockScripts scripts, Clock clock, FoldStore folds) {
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
    }

    /** Decides one record. */
    public Decision decide(String key, byte[] raw, int partition, long offset) {
        return decideAll(List.of(new Input(key, raw, partition, offset))).get(0);
    }

    /** Decides records in order; the i-th decision belongs to the i-th input. */
    public List<Decision> decideAll(List<Input> inputs) {
        Decision[] out = new Decision[inputs.size()];
        List<Integer> waiting = new ArrayList<>();
        List<Plan> plans = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            Input in = inputs.get(i);
            ParsedCommand parsed = CommandCodec.decode(in.raw());
            if (parsed instanceof ParsedCommand.Valid v && v.command() instanceof Restore r && keyMatches(in.key(), r.goodsId())) {
                run(plans, waiting, out); // the restore needs the fold of everything decided before it
                out[i] = restore(r, in.position());
                continue;
            }
            Object planned = plan(parsed, in);
            if (planned instanceof Decision d) {
                out[i] = d;
            } else {
                plans.add((Plan) planned);
                waiting.add(i);
            }
        }
        run(plans, waiting, out);
        return List.of(out);
    }

    private void run(List<Plan> plans, List<Integer> waiting, Decision[] out) {
        if (plans.isEmpty()) return;
        List<LuaResult> results = scripts.callAll(plans.stream().map(Plan::call).toList());
        for (int j = 0; j < plans.size(); j++) out[waiting.get(j)] = plans.get(j).complete().apply(results.get(j));
        plans.clear();
        waiting.clear();
    }

    /** A {@link Decision} when no Lua call is needed (DLQ), otherwise a {@link Plan}. */
    private Object plan(ParsedCommand parsed, Input in) {
        if (parsed instanceof ParsedCommand.Poison p) return Decision.dlq(p.reason());
        if (parsed instanceof ParsedCommand.InvalidPurchase ip) {
            if (!keyMatches(in.key(), ip.goodsId())) return keyMismatch(in.key(), ip.goodsId());
            return new Plan(scripts.invalidPurchaseCall(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(), ip.acceptedAt(),
                    in.position()), r -> r.emits() ? new Decision(outcome(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(),
                    ip.acceptedAt(), r, in), null, null) : Decision.NOTHING);
        }
        Command command = ((ParsedCommand.Valid) parsed).command();
        if (!keyMatches(in.key(), command.goodsId())) return keyMismatch(in.key(), command.goodsId());
        if (command instanceof Purchase p) return new Plan(scripts.purchaseCall(p, in.position()), r -> purchased(p, r, in));
        if (command instanceof Release rel) return new Plan(scripts.releaseCall(rel, in.position()), r -> released(rel, r));
        if (command instanceof OpenSale o) return new Plan(scripts.openSaleCall(o, in.position()), r -> opened(o, r));
        CloseSale c = (CloseSale) command;
        return new Plan(scripts.closeSaleCall(c, in.position()), r -> closed(c, r));
    }

    private Decision purchased(Purchase p, LuaResult r, Input in) {
        if (!r.emits()) return Decision.NOTHING;
        Outcome outcome = outcome(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt(), r, in);
        LedgerEntry ledger = null;
        if (outcome.outcome() == OutcomeKind.SUCCESS) {
            ledger = LedgerEntry.of(LedgerEntry.deductOpId(p.requestId()), p.goodsId(), LedgerType.DEDUCTED, p.quantity(),
                    p.userId(), p.requestId(), null, r.stockAfter(), outcome.decidedAt());
            GoodsFold fold = fold(p.goodsId());
            fold.stock = r.stockAfter();
            folds.put(p.goodsId(), fold);
            folds.hold(p.goodsId(), p.userId(), new GoodsFold.Holding(p.quantity(), p.requestId(), r.stockAfter()));
        }
        return new Decision(outcome, ledger, null);
    }

    private Decision released(Release rel, LuaResult r) {
        if (!r.emits() || !"RELEASED".equals(r.code())) return Decision.NOTHING;
        GoodsFold fold = fold(rel.goodsId());
        fold.stock = r.stockAfter();
        folds.put(rel.goodsId(), fold);
        folds.release(rel.goodsId(), rel.userId());
        return new Decision(null, LedgerEntry.of(rel.opId(), rel.goodsId(), LedgerType.RELEASED, r.detailAsLong(), rel.userId(),
                rel.requestId(), rel.orderId(), r.stockAfter(), clock.instant()), null);
    }

    private Decision opened(OpenSale o, LuaResult r) {
        if (!r.emits()) return Decision.NOTHING;
        if ("REFUSED".equals(r.code())) {
            return Decision.dlq("open_sale refused: keys of an earlier sale of goods " + o.goodsId()
                    + " are still in Redis (" + r.stockAfter() + " units left); send it with force=true to overwrite");
        }
        GoodsFold fold = new GoodsFold();
        GoodsFold previous = folds.get(o.goodsId());
        fold.opened = (previous == null ? 0 : previous.opened) + r.detailAsLong();
        fold.startAt = o.startAt().toEpochMilli();
        fold.endAt = o.endAt().toEpochMilli();
        fold.perUserLimit = o.perUserLimit();
        fold.stock = r.stockAfter();
        folds.put(o.goodsId(), fold);
        if (o.force()) folds.releaseAll(o.goodsId()); // the forced open cleared the buyers in Redis too
        return new Decision(null, LedgerEntry.of(o.opId(), o.goodsId(), LedgerType.OPENED, r.detailAsLong(), null, null, null,
                r.stockAfter(), clock.instant()), null);
    }

    private Decision closed(CloseSale c, LuaResult r) {
        if (!r.emits() || !"CLOSED".equals(r.code())) return Decision.NOTHING;
        GoodsFold fold = fold(c.goodsId());
        fold.status = "closed";
        folds.put(c.goodsId(), fold);
        return new Decision(null, LedgerEntry.of(c.opId(), c.goodsId(), LedgerType.CLOSED, 0, null, null, null, r.stockAfter(),
                clock.instant()), null);
    }

    private Decision restore(Restore restore, String position) {
        GoodsFold fold = folds.get(restore.goodsId());
        if (fold == null) {
            return Decision.dlq("restore refused: the ledger has no sale of goods " + restore.goodsId() + " to restore from");
        }
        LuaResult r = scripts.restore(restore, fold, folds.holdings(restore.goodsId()), position);
        if (!r.emits()) return Decision.NOTHING;
        return new Decision(null, LedgerEntry.of(restore.opId(), restore.goodsId(), LedgerType.RESTORED, 0, null, null, null,
                r.stockAfter(), clock.instant()), null);
    }

    /** The fold of a goods; an empty one (to be filled) when the ledger has none yet. */
    private GoodsFold fold(long goodsId) {
        GoodsFold fold = folds.get(goodsId);
        return fold == null ? new GoodsFold() : fold;
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
