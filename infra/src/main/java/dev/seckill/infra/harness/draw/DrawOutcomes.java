package dev.seckill.infra.harness.draw;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.ledger.BucketOf;
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

    /**
     * Where the sale opened in each commands partition that decides it: its open's offset, or — a goods split into
     * buckets — each bucket's share of the open at its own partition's offset (a bucket's outcomes carry its offsets).
     * Key -1: a one-bucket sale, whose outcomes are all of the goods' partition.
     */
    static Map<Integer, Long> opens(List<LedgerEntry> ledger, LedgerEntry opened) {
        Map<Integer, Long> at = new HashMap<>();
        if (opened.bucket() == null) {
            at.put(-1, opened.commandOffset());
            return at;
        }
        String sale = opened.opId().substring(0, opened.opId().lastIndexOf('@'));
        for (LedgerEntry e : ledger)
            if (e.type() == LedgerType.OPENED
                    && e.goodsId() == opened.goodsId()
                    && e.commandOffset() != null
                    && e.opId().equals(BucketOf.shareOpId(sale, e.bucketIndex())))
                at.put(e.commandPartition(-1), e.commandOffset());
        return at;
    }

    /** The offset the sale opened at in the outcome's partition; null when the sale is not decided there. */
    static Long openIn(Map<Integer, Long> opens, Outcome o) {
        return opens.containsKey(-1) ? opens.get(-1) : opens.get(o.partition());
    }

    /** The requestIds of the goods decided before the open (an earlier sale's): a window purchase reusing one is not new. */
    static Set<String> decidedBefore(DrawRecords r, Map<Integer, Long> opens) {
        Set<String> before = new HashSet<>();
        for (Outcome o : r.outcomes()) {
            Long open = openIn(opens, o);
            if (o.goodsId() == r.goodsId() && (open == null || o.offset() < open)) before.add(o.requestId());
        }
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

    /**
     * Names each DEDUCTED entry of a window purchase after the DRAWN one that comes after a buyer the draw ranks behind
     * it in the same bucket (a goods split into buckets deducts in each bucket in the draw's order; the buckets' entries
     * interleave as their partitions are decided).
     */
    static void deductionsInDrawOrder(
            long goods,
            LedgerEntry drawn,
            List<LedgerEntry> ledger,
            Set<String> window,
            List<Long> order,
            List<String> problems) {
        Map<Long, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) rank.put(order.get(i), i);
        Map<Integer, Integer> last = new HashMap<>();
        boolean after = false;
        for (LedgerEntry e : ledger) {
            if (e == drawn) after = true;
            if (!after || e.goodsId() != goods || e.type() != LedgerType.DEDUCTED || !window.contains(e.requestId()))
                continue;
            int r = rank.getOrDefault(e.userId(), Integer.MAX_VALUE);
            int before = last.getOrDefault(e.bucketIndex(), -1);
            if (r < before) problems.add(e.requestId() + ": deducted after a buyer the draw ranks behind it");
            last.put(e.bucketIndex(), Math.max(before, r));
        }
    }
}
