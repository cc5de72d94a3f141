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

/**
 * Decides one command record: parse, check the key, one Lua call, and turn its answer into an outcome and/or a
 * ledger entry. Holds no state of its own: everything that must survive a crash is in Redis (the stored decision)
 * or in the Kafka transaction of the caller.
 */
public final class Decider {
    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;

    public Decider(StockScripts scripts, Clock clock, FoldStore folds) {
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
    }

    /**
     * @param key the record key, which must be the goods id (the partitioning that makes decisions serial per goods)
     * @param raw the record value
     */
    public Decision decide(String key, byte[] raw, int partition, long offset) {
        String position = partition + ":" + offset;
        ParsedCommand parsed = CommandCodec.decode(raw);
        if (parsed instanceof ParsedCommand.Poison p) return Decision.dlq(p.reason());
        if (parsed instanceof ParsedCommand.InvalidPurchase ip) {
            if (!keyMatches(key, ip.goodsId())) return keyMismatch(key, ip.goodsId());
            LuaResult r = scripts.invalidPurchase(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(), ip.acceptedAt(), position);
            return r.emits() ? new Decision(outcome(ip.requestId(), ip.goodsId(), ip.userId(), ip.quantity(), ip.acceptedAt(),
                    r, partition, offset), null, null) : Decision.NOTHING;
        }
        Command command = ((ParsedCommand.Valid) parsed).command();
        return keyMatches(key, command.goodsId()) ? decide(command, position, partition, offset) : keyMismatch(key, command.goodsId());
    }

    private Decision decide(Command command, String position, int partition, long offset) {
        if (command instanceof Purchase p) return purchase(p, position, partition, offset);
        if (command instanceof Release r) return release(r, position);
        if (command instanceof OpenSale o) return openSale(o, position);
        if (command instanceof CloseSale c) return closeSale(c, position);
        return restore((Restore) command, position);
    }

    private Decision purchase(Purchase p, String position, int partition, long offset) {
        LuaResult r = scripts.purchase(p, position);
        if (!r.emits()) return Decision.NOTHING;
        Outcome outcome = outcome(p.requestId(), p.goodsId(), p.userId(), p.quantity(), p.acceptedAt(), r, partition, offset);
        LedgerEntry ledger = null;
        if (outcome.outcome() == OutcomeKind.SUCCESS) {
            ledger = LedgerEntry.of(LedgerEntry.deductOpId(p.requestId()), p.goodsId(), LedgerType.DEDUCTED, p.quantity(),
                    p.userId(), p.requestId(), null, r.stockAfter(), outcome.decidedAt());
            GoodsFold fold = fold(p.goodsId());
            fold.buyers.put(p.userId(), new GoodsFold.Holding(p.quantity(), p.requestId(), r.stockAfter()));
            fold.stock = r.stockAfter();
            folds.put(p.goodsId(), fold);
        }
        return new Decision(outcome, ledger, null);
    }

    private Decision release(Release rel, String position) {
        LuaResult r = scripts.release(rel, position);
        if (!r.emits() || !"RELEASED".equals(r.code())) return Decision.NOTHING;
        GoodsFold fold = fold(rel.goodsId());
        fold.buyers.remove(rel.userId());
        fold.stock = r.stockAfter();
        folds.put(rel.goodsId(), fold);
        return new Decision(null, LedgerEntry.of(rel.opId(), rel.goodsId(), LedgerType.RELEASED, r.detailAsLong(), rel.userId(),
                rel.requestId(), rel.orderId(), r.stockAfter(), clock.instant()), null);
    }

    private Decision openSale(OpenSale o, String position) {
        LuaResult r = scripts.openSale(o, position);
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
        return new Decision(null, LedgerEntry.of(o.opId(), o.goodsId(), LedgerType.OPENED, r.detailAsLong(), null, null, null,
                r.stockAfter(), clock.instant()), null);
    }

    private Decision closeSale(CloseSale c, String position) {
        LuaResult r = scripts.closeSale(c, position);
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
        LuaResult r = scripts.restore(restore, fold, position);
        if (!r.emits()) return Decision.NOTHING;
        return new Decision(null, LedgerEntry.of(restore.opId(), restore.goodsId(), LedgerType.RESTORED, 0, null, null, null,
                r.stockAfter(), clock.instant()), null);
    }

    /** The fold of a goods; an empty one (to be filled) when the ledger has none yet. */
    private GoodsFold fold(long goodsId) {
        GoodsFold fold = folds.get(goodsId);
        return fold == null ? new GoodsFold() : fold;
    }

    private Outcome outcome(String requestId, long goodsId, long userId, int quantity, java.time.Instant acceptedAt,
                            LuaResult r, int partition, long offset) {
        OutcomeKind kind = OutcomeKind.valueOf(r.code());
        return Outcome.of(requestId, goodsId, userId, quantity, kind, r.detail().isEmpty() ? null : r.detail(), r.stockAfter(),
                acceptedAt, clock.instant(), partition, offset);
    }

    private static boolean keyMatches(String key, long goodsId) { return Long.toString(goodsId).equals(key); }

    private static Decision keyMismatch(String key, long goodsId) {
        return Decision.dlq("record key '" + key + "' is not the goodsId " + goodsId + " (commands are keyed by goodsId)");
    }
}
