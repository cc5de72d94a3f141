package dev.seckill.infra.harness;

import org.HdrHistogram.Histogram;

/**
 * Percentiles of recorded latencies, the one home for them in infra: every percentile goes through an HdrHistogram
 * with 3 significant digits, read at the middle of the bucket the rank falls in: within 0.05% of the recorded value
 * at that rank, and exact below 2048 of the unit (any figure in ms, or up to 2 ms in µs).
 */
public final class Latencies {
    private Latencies() {}

    /** A histogram of {@code values[from..]}, in their unit (a negative value, a clock's step back, counts as 0). */
    public static Histogram histogram(long[] values, int from) {
        Histogram h = new Histogram(3);
        for (int i = Math.max(0, from); i < values.length; i++) h.recordValue(Math.max(0, values[i]));
        return h;
    }

    /** The {@code p}-th percentile (0..100) of {@code values[from..]} in their unit; 0 when there is none. */
    public static long percentile(long[] values, double p, int from) {
        if (values.length <= from) return 0;
        return at(histogram(values, from), p);
    }

    /** The {@code p}-th percentile (0..100) of a histogram: the middle of the bucket that rank falls in. */
    public static long at(Histogram h, double p) {
        return h.medianEquivalentValue(h.getValueAtPercentile(p));
    }

    /** The {@code p}-th percentile in milliseconds over {@code micros[from..]}; 0 when there is none. */
    public static double percentileMillis(long[] micros, double p, int from) {
        return percentile(micros, p, from) / 1000.0;
    }
}
