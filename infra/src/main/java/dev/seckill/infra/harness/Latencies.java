package dev.seckill.infra.harness;

import java.util.Arrays;

/** Percentiles of per-request latencies in microseconds (nearest rank). */
public final class Latencies {
    private Latencies() {}

    /** The {@code p}-th percentile in milliseconds over {@code micros[from..]}; 0 when there is none. */
    public static double percentileMillis(long[] micros, double p, int from) {
        if (micros.length <= from) return 0;
        long[] sorted = Arrays.copyOfRange(micros, from, micros.length);
        Arrays.sort(sorted);
        int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(i, 0)] / 1000.0;
    }
}
