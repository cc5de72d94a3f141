package dev.seckill.infra.harness;

import java.util.Arrays;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Time to answer: per request, from when the client sent it (or, in an open loop, when it was due) to when the client
 * held its final outcome. A request whose answer was not final (a 202 PENDING after its {@code Prefer: wait}, an
 * error, a 429) never had its answer within the run: it counts as infinitely late, so it lowers every "knew within"
 * share and, when there are enough of them, makes a high percentile infinite rather than flattering it.
 */
public final class AnswerTimes {
    private final long[] sortedMicros;
    private final int count;
    private final Histogram answeredMicros;

    private AnswerTimes(long[] sortedMicros, int count) {
        this.sortedMicros = sortedMicros;
        this.count = count;
        this.answeredMicros = Latencies.histogram(Arrays.copyOf(sortedMicros, answered()), 0);
    }

    /**
     * @param micros   each request's latency in microseconds
     * @param answered whether request i's answer carried its final outcome
     * @param from     the first request counted (an open loop's first seconds are its warm-up)
     */
    public static AnswerTimes of(long[] micros, boolean[] answered, int from) {
        int n = Math.max(0, micros.length - from);
        long[] t = new long[n];
        for (int i = 0; i < n; i++) t[i] = answered[from + i] ? micros[from + i] : Long.MAX_VALUE;
        Arrays.sort(t);
        return new AnswerTimes(t, n);
    }

    public int count() {
        return count;
    }

    /** How many had their final outcome. */
    public int answered() {
        return atMost(Long.MAX_VALUE - 1);
    }

    /**
     * The p-th percentile (nearest rank) in milliseconds, through {@link Latencies}' histogram of the answered times;
     * infinite when that rank had no final answer; 0 when empty.
     */
    public double percentileMillis(double p) {
        if (count == 0) return 0;
        int rank = Math.max(1, (int) Math.min(count, Math.ceil(p / 100.0 * count)));
        long answered = answeredMicros.getTotalCount();
        if (rank > answered) return Double.POSITIVE_INFINITY;
        return Latencies.at(answeredMicros, 100.0 * rank / answered) / 1000.0;
    }

    /**
     * What a report prints of these times, by name ({@code --json}): counts, p50 / p99 / p99.9 in ms (null: that rank
     * had no final answer) and the share known within 100 ms and 1 s.
     */
    @com.fasterxml.jackson.annotation.JsonValue
    public java.util.Map<String, Object> summary() {
        java.util.Map<String, Object> s = new java.util.LinkedHashMap<>();
        s.put("requests", count);
        s.put("answered", answered());
        for (double p : new double[] {50, 99, 99.9}) {
            double ms = percentileMillis(p);
            s.put("p" + (p == 99.9 ? "999" : Integer.toString((int) p)) + "Ms", Double.isFinite(ms) ? ms : null);
        }
        s.put("within100Ms", shareWithin(100));
        s.put("within1S", shareWithin(1000));
        return s;
    }

    /** The share (0..1) of requests whose final outcome the client held within {@code millis}. */
    public double shareWithin(double millis) {
        if (count == 0) return 0;
        return atMost((long) (millis * 1000)) / (double) count;
    }

    /** How many latencies are at most {@code micros} (the first index of a larger one in the sorted array). */
    private int atMost(long micros) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sortedMicros[mid] <= micros) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** "p50 12.3 ms   p99 45.6 ms   p99.9 78.9 ms", an infinite percentile as "not answered". */
    public String percentiles() {
        return "p50 " + fmt(percentileMillis(50)) + "   p99 " + fmt(percentileMillis(99)) + "   p99.9 "
                + fmt(percentileMillis(99.9));
    }

    /** "knew within 100 ms 97.1%, within 1 s 100.0%". */
    public String shares() {
        return String.format(
                Locale.ROOT,
                "knew within 100 ms %.1f%%, within 1 s %.1f%%",
                100 * shareWithin(100),
                100 * shareWithin(1000));
    }

    static String fmt(double ms) {
        return Double.isInfinite(ms) ? "not answered" : String.format(Locale.ROOT, "%.1f ms", ms);
    }
}
