package dev.seckill.infra.harness;

import dev.seckill.kit.warmup.JitSettle;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The one HTTP load generator of infra (the demo, the gateway, answer and cold-start benchmarks, drills): a
 * {@link LoadSpec}'s purchases, buyers drawn at random (seeded) and requests prepared before the clock starts, sent
 * over its connections by the raw generator ({@link RawConnection}) or Vert.x's client ({@link ClientLane}), one
 * request in flight per connection. Closed loop (a connection sends its next request when its last is answered) or
 * open loop at a fixed rate, as wrk2 does ({@link LoadLoop}, {@link OpenLoopSchedule}): requests become due at the
 * rate whatever the answers, wait for a free connection, and each one's latency counts from when it was due (no
 * coordinated omission). With {@code Prefer: wait} ({@link LoadSpec#waitSeconds()}) a latency is the time to answer.
 */
public final class HttpLoad {
    /**
     * What a run measured; {@code latenciesMicros[i]} is request i's, {@code final200[i]} whether it was answered 200;
     * {@code acceptedIds} the requestIds of the 202s (empty unless the spec keeps them).
     */
    public record Result(
            long requests,
            long accepted,
            Set<String> acceptedIds,
            Map<Integer, Long> byStatus,
            long errors,
            long elapsedNanos,
            long[] latenciesMicros,
            boolean[] final200,
            long jitMillis) {
        public double acceptedPerSecond() {
            return accepted / (elapsedNanos / 1e9);
        }

        public double requestsPerSecond() {
            return requests / (elapsedNanos / 1e9);
        }

        public double percentileMillis(double p) {
            return percentileMillis(p, 0);
        }

        /** The percentile over requests {@code from} onwards, whatever their answer (an open loop's first seconds are its warm-up). */
        public double percentileMillis(double p, int from) {
            return Latencies.percentileMillis(latenciesMicros, p, from);
        }

        /** Time to answer over requests {@code from} onwards: a request not answered 200 (its outcome) never knew. */
        public AnswerTimes answerTimes(int from) {
            return AnswerTimes.of(latenciesMicros, final200, from);
        }

        /** Answers that carried the outcome (200), per second of the run. */
        public double answeredPerSecond() {
            return byStatus.getOrDefault(200, 0L) / (elapsedNanos / 1e9);
        }
    }

    /** A generator's connections, grouped by the event loop that serves them, and how to close them all. */
    record Lanes(List<LoadLoop> loops, Runnable closer) implements AutoCloseable {
        @Override
        public void close() {
            closer.run();
        }
    }

    private HttpLoad() {}

    public static Result run(LoadSpec spec, IntConsumer progress) throws InterruptedException {
        LoadRun run = new LoadRun(spec, progress);
        try (Lanes lanes = spec.generator() == LoadSpec.Generator.RAW
                ? RawConnection.open(spec, run)
                : ClientLane.open(spec, run)) {
            List<LoadLoop> loops = lanes.loops();
            System.gc(); // what was prepared leaves the young generation before the clock starts (as JMH does)
            // and the compiler has finished what the preparation and the last load gave it
            if (!spec.jitQuiet().isZero()) JitSettle.await(spec.jitQuiet());
            long jitBefore = JitSettle.millis();
            long start = System.nanoTime();
            run.start = start;
            for (int l = 0; l < loops.size(); l++) loops.get(l).start(l, loops.size(), spec.rate() / loops.size());
            if (!run.finished.await(10, TimeUnit.MINUTES))
                throw new IllegalStateException("load did not finish in 10 minutes");
            long elapsed = System.nanoTime() - start;
            loops.forEach(LoadLoop::stop);
            return new Result(
                    spec.requests(),
                    run.accepted.get(),
                    run.keepsIds() ? run.acceptedIds : Set.of(),
                    run.byStatus,
                    run.errors.get(),
                    elapsed,
                    run.latencies,
                    run.final200,
                    JitSettle.millis() - jitBefore);
        }
    }
}
