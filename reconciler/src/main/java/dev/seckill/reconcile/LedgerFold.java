package dev.seckill.reconcile;

import dev.seckill.contracts.ledger.LedgerEntry;
import java.util.HashMap;
import java.util.Map;

/** The ledger folded per goods: what Redis and the DB should say once the pipeline has drained. */
public final class LedgerFold {
    /** One goods' fold. {@code liveBuyers} maps userId to the quantity the ledger says that buyer holds. */
    public static final class Goods {
        public long opened;
        public long deducted;
        public long released;
        public long entries;
        public final Map<Long, Long> liveBuyers = new HashMap<>();

        public long expectedStock() { return opened - deducted + released; }
    }

    private final Map<Long, Goods> goods = new HashMap<>();

    public void apply(LedgerEntry e) {
        Goods g = goods.computeIfAbsent(e.goodsId(), k -> new Goods());
        g.entries++;
        switch (e.type()) {
            case OPENED -> g.opened += e.quantity();
            case DEDUCTED -> {
                g.deducted += e.quantity();
                if (e.userId() != null) g.liveBuyers.merge(e.userId(), e.quantity(), Long::sum);
            }
            case RELEASED -> {
                g.released += e.quantity();
                if (e.userId() != null) g.liveBuyers.remove(e.userId());
            }
            default -> { }
        }
    }

    public Map<Long, Goods> goods() { return goods; }
}
