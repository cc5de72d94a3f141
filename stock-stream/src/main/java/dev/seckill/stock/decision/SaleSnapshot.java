package dev.seckill.stock.decision;

import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.util.Set;

/** A goods' sale as its ledger fold holds it right now, copied to arm the {@link SoldOutGate}: window, limit, units, live buyers. */
public record SaleSnapshot(long startAt, long endAt, int perUserLimit, boolean closed, long stock, Set<Long> buyers) {

    /** The goods' sale from its fold; null when the fold has none. */
    static SaleSnapshot of(FoldStore folds, long goodsId) {
        GoodsFold fold = folds.get(goodsId);
        if (fold == null || fold.opened <= 0) return null;
        return new SaleSnapshot(
                fold.startAt,
                fold.endAt,
                fold.perUserLimit,
                "closed".equals(fold.status),
                fold.stock,
                folds.holdings(goodsId).keySet());
    }
}
