package dev.seckill.infra.bench.fairness;

import dev.seckill.contracts.fair.Fairness;
import dev.seckill.infra.bench.TextTable;
import dev.seckill.infra.harness.FairSplit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The rows {@code bench fairness} prints: per sale and mode, each group's wins, the fair-draw test, the answer wait. */
final class FairnessTable {
    static final String[] HEADER = {
        "sale",
        "mode",
        "group A won",
        "A per buyer",
        "group B won",
        "B per buyer",
        "P(split | fair)",
        "99% interval (A)",
        "draw",
        "answer p50/p99 ms"
    };

    private FairnessTable() {}

    static FairSplit split(List<FairSale.Group> sale, FairSale.Result r) {
        FairSale.Group a = sale.get(0);
        FairSale.Group b = sale.get(1);
        long wonA = r.won().get(a);
        long wonB = r.won().get(b);
        return FairSplit.of(wonA, wonA + wonB, a.buyers(), (long) a.buyers() + b.buyers());
    }

    /**
     * A lottery is fair here when its split is within the 99% interval of an equal chance, its draw checks out from the
     * topics, and the draw ranked exactly the buyers the sale sent (a draw of fewer buyers could look fair by leaving
     * some out).
     */
    static boolean fair(List<FairSale.Group> sale, FairSale.Result r) {
        return split(sale, r).within99()
                && r.draw() != null
                && r.draw().follows()
                && r.draw().buyers() == buyersSent(sale);
    }

    static int buyersSent(List<FairSale.Group> sale) {
        return sale.stream().mapToInt(FairSale.Group::buyers).sum();
    }

    static String[] row(List<FairSale.Group> sale, FairSale.Result r) {
        FairSplit s = split(sale, r);
        return new String[] {
            sale.get(0).name() + " vs " + sale.get(1).name(),
            r.mode().wire(),
            String.format("%,d %s", s.groupWon(), sale.get(0).name()),
            String.format("%.3f", s.groupRate()),
            String.format("%,d %s", s.won() - s.groupWon(), sale.get(1).name()),
            String.format("%.3f", s.othersRate()),
            s.p() == 0 ? "< 1e-300" : s.p() < 1e-4 ? String.format("%.1e", s.p()) : String.format("%.3f", s.p()),
            String.format("[%d, %d]%s", s.low99(), s.high99(), s.within99() ? "" : " outside"),
            r.mode() == Fairness.FCFS
                    ? "-"
                    : r.draw() == null
                            ? "none"
                            : (r.draw().follows() ? "verified, " : "FAILED, ")
                                    + String.format(
                                            "%,d of %,d buyers", r.draw().buyers(), buyersSent(sale)),
            String.format("%d / %d", r.answerPercentile(50), r.answerPercentile(99))
        };
    }

    /**
     * One sale's figures for {@code --json}, as numbers: each group's buyers, units won and wins per buyer, the fair
     * draw's test (p, the 99% interval of group A's wins), the draw's check (null under first come first served) and
     * the answer wait.
     */
    static Map<String, Object> document(List<FairSale.Group> sale, FairSale.Result r) {
        FairSplit s = split(sale, r);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("sale", sale.get(0).name() + " vs " + sale.get(1).name());
        d.put("mode", r.mode().wire());
        d.put("groupA", group(sale.get(0), s.groupWon(), s.groupRate()));
        d.put("groupB", group(sale.get(1), s.won() - s.groupWon(), s.othersRate()));
        d.put("pSplitIfFair", s.p());
        d.put("interval99A", Map.of("low", s.low99(), "high", s.high99(), "within", s.within99()));
        if (r.draw() != null)
            d.put(
                    "draw",
                    Map.of(
                            "verified", r.draw().follows(),
                            "buyersRanked", r.draw().buyers(),
                            "buyersSent", buyersSent(sale)));
        d.put("fair", r.mode() == Fairness.FCFS ? null : fair(sale, r));
        d.put("answerP50Ms", r.answerPercentile(50));
        d.put("answerP99Ms", r.answerPercentile(99));
        return d;
    }

    private static Map<String, Object> group(FairSale.Group g, long won, double perBuyer) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", g.name());
        d.put("buyers", g.buyers());
        d.put("won", won);
        d.put("wonPerBuyer", perBuyer);
        return d;
    }

    /** The table of these rows ({@link #row}): printed as text, given to {@code --json} as documented rows. */
    static TextTable of(List<String[]> rows) {
        TextTable t = TextTable.of(HEADER);
        for (String[] r : rows) t.row((Object[]) r);
        return t;
    }
}
