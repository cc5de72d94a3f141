package dev.seckill.infra.ops.report;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A goods' units left over time from its ledger entries, the goods as one pool: one bucket's {@code stockAfter}, or — a
 * goods split into buckets (docs/contracts.md, "Entries of a goods split into buckets") — the sum of each bucket's last
 * {@code stockAfter} and the units in transit between them (a TRANSFERRED_OUT seen, its TRANSFERRED_IN not yet). A
 * bucket's own {@code stockAfter} alone would show the goods sold out when its first bucket was.
 *
 * @param points the goods' units left after each stock change, in the ledger's order (times never decreasing)
 * @param soldOutAt when a purchase first left the goods with no unit anywhere, or null
 * @param buckets each bucket of the goods' last sale split into buckets, in bucket order; empty for one bucket
 */
record GoodsStock(List<GoodsReport.StockPoint> points, Instant soldOutAt, List<GoodsReport.Bucket> buckets) {

    /**
     * Folded in the ledger's order ({@code ledgerOfGoods} as its partition holds it: a transfer's TRANSFERRED_IN is
     * written after its TRANSFERRED_OUT committed, a bucket's OPENED after home's), not by {@code at}, which each
     * stream instance stamps by its own clock. The points keep that order — each a state the goods was in, the last one
     * where it is now — with a time no earlier than the point before (two buckets' threads stamp by their own clocks:
     * sorted by {@code at}, an earlier state could come last).
     */
    static GoodsStock of(List<LedgerEntry> ledgerOfGoods) {
        Map<Integer, Long> left = new HashMap<>();
        Map<String, long[]> inTransit = new HashMap<>(); // transfer → {units, the bucket they go to}
        Map<Integer, GoodsReport.Bucket> buckets = new TreeMap<>();
        List<GoodsReport.StockPoint> points = new ArrayList<>();
        Instant soldOut = null;
        for (LedgerEntry e : ledgerOfGoods) {
            if (e.type() == LedgerType.PAID || e.type() == LedgerType.PAYMENT_REFUSED) continue;
            int b = e.bucketIndex();
            if (e.type() == LedgerType.OPENED && b == 0) { // a sale begins: what the one before left is not its
                left.clear();
                inTransit.clear();
                buckets.clear();
            }
            // a bucket opened again absorbs the units still on their way to it (its OPENED sets its units)
            if (e.type() == LedgerType.OPENED) inTransit.values().removeIf(t -> t[1] == b);
            left.put(b, e.stockAfter());
            String transfer = transferOf(e);
            if (e.type() == LedgerType.TRANSFERRED_OUT && e.bucket().peer() != null)
                inTransit.put(transfer, new long[] {e.quantity(), e.bucket().peer()});
            if (e.type() == LedgerType.TRANSFERRED_IN) inTransit.remove(transfer);
            long units = left.values().stream().mapToLong(Long::longValue).sum()
                    + inTransit.values().stream().mapToLong(t -> t[0]).sum();
            Instant at = points.isEmpty()
                            || !e.at().isBefore(points.get(points.size() - 1).at())
                    ? e.at()
                    : points.get(points.size() - 1).at();
            points.add(new GoodsReport.StockPoint(at, units));
            if (soldOut == null && units == 0 && e.type() == LedgerType.DEDUCTED) soldOut = e.at();
            if (e.bucket() != null)
                buckets.put(
                        b, buckets.getOrDefault(b, GoodsReport.Bucket.none(e)).with(e));
        }
        return new GoodsStock(List.copyOf(points), soldOut, List.copyOf(buckets.values()));
    }

    /** The transfer an entry is a side of (its opId without {@code :out}/{@code :in}); null for any other entry. */
    private static String transferOf(LedgerEntry e) {
        if (e.type() != LedgerType.TRANSFERRED_OUT && e.type() != LedgerType.TRANSFERRED_IN) return null;
        return e.opId().substring(0, e.opId().lastIndexOf(':'));
    }
}
