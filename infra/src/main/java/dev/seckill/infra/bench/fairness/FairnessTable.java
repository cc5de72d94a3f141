package dev.seckill.infra.bench.fairness;

import dev.seckill.contracts.fair.Fairness;
import dev.seckill.infra.bench.TextTable;
import dev.seckill.infra.harness.FairSplit;
import java.util.List;

/** The rows {@code bench fairness} prints: per sale and mode, each group's wins, the fair-draw test, the answer wait. */
final class FairnessTable {
    static final String[] HEADER = {
        "sale",
        "mode",
        "group A won",
        "per buyer",
        "group B won",
        "per buyer",
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

    /** Under a lottery: the split within the 99% interval of a fair draw, and the draw verified from the topics. */
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

    /** The table of these rows ({@link #row}): printed as text, given to {@code --json} as documented rows. */
    static TextTable of(List<String[]> rows) {
        TextTable t = TextTable.of(HEADER);
        for (String[] r : rows) t.row((Object[]) r);
        return t;
    }
}
