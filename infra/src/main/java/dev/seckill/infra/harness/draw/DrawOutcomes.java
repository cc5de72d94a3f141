package dev.seckill.infra.harness.draw;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What a draw's order makes of its entries, as the decision judges them: the winners, and the DEDUCTED entries' order. */
final class DrawOutcomes {
    private DrawOutcomes() {}

    /** The requestIds of the goods decided before the open (an earlier sale's): a window purchase reusing one is not new. */
    static Set<String> decidedBefore(DrawRecords r, long openOffset) {
        Set<String> before = new HashSet<>();
        for (Outcome o : r.outcomes())
            if (o.goodsId() == r.goodsId() && o.offset() < openOffset) before.add(o.requestId());
        return before;
    }

    /**
     * The draw's winners: buyer by buyer in its order, each request in arrival order, as the decision judges them — a
     * requestId seen before (in an earlier sale, or earlier in the draw) is not a new purchase, a quantity above the
     * per-user limit is refused, one above the units left is sold out, and a buyer who won holds a live purchase, so
     * their later requests are DUPLICATE (invariant 2).
     */
    static Set<String> winners(OpenSale open, List<Long> order, Map<Long, List<Purchase>> byBuyer, Set<String> before) {
        long units = open.stock();
        Set<String> won = new LinkedHashSet<>();
        Set<String> decided = new HashSet<>(before);
        for (long u : order) {
            for (Purchase p : byBuyer.get(u)) {
                if (!decided.add(p.requestId())) continue;
                if (p.quantity() > open.perUserLimit() || p.quantity() > units) continue;
                units -= p.quantity();
                won.add(p.requestId());
                break;
            }
        }
        return won;
    }

    /** Names each DEDUCTED entry of a window purchase after the DRAWN one that comes after a buyer the draw ranks behind it. */
    static void deductionsInDrawOrder(
            long goods,
            LedgerEntry drawn,
            List<LedgerEntry> ledger,
            Set<String> window,
            List<Long> order,
            List<String> problems) {
        Map<Long, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) rank.put(order.get(i), i);
        int last = -1;
        boolean after = false;
        for (LedgerEntry e : ledger) {
            if (e == drawn) after = true;
            if (!after || e.goodsId() != goods || e.type() != LedgerType.DEDUCTED || !window.contains(e.requestId()))
                continue;
            int r = rank.getOrDefault(e.userId(), Integer.MAX_VALUE);
            if (r < last) problems.add(e.requestId() + ": deducted after a buyer the draw ranks behind it");
            last = Math.max(last, r);
        }
    }
}
