package dev.seckill.infra.harness;

import org.apache.commons.math3.distribution.HypergeometricDistribution;

/**
 * How likely a split of a sale's winners between a group and everyone else is when every buyer had the same chance
 * (one ticket each): the group's wins among {@code won} units follow a hypergeometric law over {@code buyers} buyers of
 * whom {@code group} are the group's (a fair coin per unit, without replacement). Exact, by commons-math.
 *
 * @param p        two-sided: twice the smaller tail at the observed count (capped at 1)
 * @param low99    the 99% interval of the group's wins under a fair draw (0.5% in each tail)
 */
public record FairSplit(long groupWon, long won, long group, long buyers, double p, int low99, int high99) {

    public static FairSplit of(long groupWon, long won, long group, long buyers) {
        if (won == 0 || group == 0 || group == buyers)
            return new FairSplit(groupWon, won, group, buyers, 1, 0, (int) won);
        HypergeometricDistribution h = new HypergeometricDistribution(null, (int) buyers, (int) group, (int) won);
        double lower = h.cumulativeProbability((int) groupWon);
        double upper = h.upperCumulativeProbability((int) groupWon); // not 1 - cdf: tiny tails keep their digits
        double p = Math.min(1, 2 * Math.min(lower, upper));
        return new FairSplit(
                groupWon,
                won,
                group,
                buyers,
                p,
                h.inverseCumulativeProbability(0.005),
                h.inverseCumulativeProbability(0.995));
    }

    /** Whether the group's wins are inside the 99% interval of a fair draw. */
    public boolean within99() {
        return groupWon >= low99 && groupWon <= high99;
    }

    /** The group's wins per buyer of it, beside everyone else's. */
    public double groupRate() {
        return (double) groupWon / group;
    }

    public double othersRate() {
        return (double) (won - groupWon) / (buyers - group);
    }
}
