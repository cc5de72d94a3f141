package dev.seckill.infra.bench.coldstart;

import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.Latencies;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Accept latency of a sale fired by {@link HttpLoad} in a closed loop, for its first second and overall. The
 * generator gives each request's latency by index, not its send time; in a closed loop every answer sends the next
 * request and indexes are handed out in sending order, so the requests sent in the first second are the first
 * {@code connections + answered(1 s)}. {@code answered(t)} comes from the generator's progress callbacks (every 1,024
 * answers, and the last), interpolated; the run's start is the last answer's time minus the run's elapsed time.
 */
record SaleLatency(
        int firstSecondRequests,
        double firstP50,
        double firstP99,
        double p50,
        double p99,
        long accepted,
        Map<Integer, Long> byStatus,
        double seconds) {

    /** Records {@code (time, answered)} from the generator's progress callback. */
    static final class Progress implements IntConsumer {
        private final List<long[]> samples = new ArrayList<>();
        private final IntConsumer also;

        Progress(IntConsumer also) {
            this.also = also;
        }

        @Override
        public synchronized void accept(int answered) {
            samples.add(new long[] {System.nanoTime(), answered});
            also.accept(answered);
        }

        /** Answers by {@code nanos} after {@code start}, linearly between the samples around it. */
        synchronized long answeredBy(long start, long nanos) {
            long t = start + nanos;
            long prevT = start;
            long prevN = 0;
            for (long[] s : samples) {
                if (s[0] >= t)
                    return prevN + (long) ((s[1] - prevN) * (double) (t - prevT) / Math.max(1, s[0] - prevT));
                prevT = s[0];
                prevN = s[1];
            }
            return prevN;
        }

        synchronized long lastAt() {
            return samples.isEmpty() ? System.nanoTime() : samples.get(samples.size() - 1)[0];
        }
    }

    static SaleLatency of(HttpLoad.Result r, Progress progress, int connections) {
        long start = progress.lastAt() - r.elapsedNanos();
        int first =
                (int) Math.min(r.latenciesMicros().length, connections + progress.answeredBy(start, 1_000_000_000L));
        long[] firstSecond = Arrays.copyOfRange(r.latenciesMicros(), 0, first);
        return new SaleLatency(
                first,
                Latencies.percentileMillis(firstSecond, 50, 0),
                Latencies.percentileMillis(firstSecond, 99, 0),
                r.percentileMillis(50, 0),
                r.percentileMillis(99, 0),
                r.accepted(),
                r.byStatus(),
                r.elapsedNanos() / 1e9);
    }
}
