package dev.seckill.stock.decision;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Restore;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A purchase whose goods has no sale in Redis (the script answered NOSALE, storing nothing). If stock-stream's own
 * fold knows a live sale of the goods, Redis lost its keys (restarted without persistence, a FLUSHALL): the sale is
 * rebuilt here from the fold at this purchase's position — what a {@code restore} command would do — and the purchase
 * decided again, so no buyer of a live sale is told {@code no_sale} while the reconciler is still on its way. The batch
 * is run before any open or close ({@link Decider}), so the purchase is never decided against a sale opened after it;
 * a release or pay of the same goods later in the batch already met the wiped keys (NOOP, as it would before a
 * reconciler's restore), and the fold it is rebuilt from is the one before them. The keys keep the lifetime the fold recorded (no ledger entry: the sale's end does not move). A
 * goods the fold knows no sale of is called again without the question, and gets its stored REJECTED no_sale.
 */
final class WipedSales {
    private static final Logger LOG = LoggerFactory.getLogger(WipedSales.class);

    private final StockScripts scripts;
    private final FoldStore folds;

    WipedSales(StockScripts scripts, FoldStore folds) {
        this.scripts = scripts;
        this.folds = folds;
    }

    /** The decision of a purchase answered NOSALE. */
    LuaResult decide(Purchase p, String position) {
        GoodsFold fold = folds.get(p.goodsId());
        if (fold == null || fold.opened <= 0 || scripts.lifetime().retired(keysEnd(fold)))
            return scripts.call(scripts.purchaseCall(p, position, false));
        // an earlier purchase of the same batch may have restored it already
        LuaResult again = scripts.call(scripts.purchaseCall(p, position, true));
        if (again.status() != LuaResult.Status.NOSALE) return again;
        LuaResult restored = scripts.restore(
                new Restore(p.goodsId(), "inline-restore:" + position),
                fold,
                folds.holdings(p.goodsId()),
                position,
                keysEnd(fold));
        scripts.countInlineRestore();
        LOG.warn(
                "goods {}: Redis had no key of its live sale (lost: restart without persistence, FLUSHALL); rebuilt"
                        + " from the ledger fold at {} ({} buyers, {} units left) before deciding {}",
                p.goodsId(),
                position,
                restored.detail(),
                fold.stock,
                p.requestId());
        return scripts.call(scripts.purchaseCall(p, position, false));
    }

    /** When the sale's keys expire, as the fold recorded it (folds written before it was kept: end + grace). */
    private long keysEnd(GoodsFold fold) {
        return fold.expireAt > 0
                ? fold.expireAt
                : fold.endAt + scripts.lifetime().grace().toMillis();
    }
}
