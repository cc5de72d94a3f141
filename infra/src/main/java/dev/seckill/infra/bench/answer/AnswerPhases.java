package dev.seckill.infra.bench.answer;

import dev.seckill.infra.harness.AnswerTimes;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.ProgressBar;
import java.io.PrintStream;
import java.time.Duration;

/**
 * The time-to-answer phases against one running pipeline (gateway, stock-stream, order-writer), each next to its
 * reference measured right before it: the same load without {@code Prefer: wait}, i.e. the accept latency (time to 202).
 */
final class AnswerPhases {
    /** What {@code Prefer: wait} asks for: the gateway's cap, far above any answer time measured here. */
    static final int WAIT_SECONDS = 10;

    private static final long GOODS = 1001;
    private static final Duration JIT_QUIET = Duration.ofSeconds(10);
    /** The warm-up goes on while the JIT compilers took more than this share of its wall time (one core = 1.0). */
    static final double JIT_BUSY = 0.10;
    /** ... but no further round once this many warm-up requests would be passed (a first round is always run). */
    static final int MAX_WARMUP = 400_000;

    /** The figures of one pipeline configuration. */
    record Figures(
            AnswerTimes sequential,
            double sequentialAcceptP50,
            AnswerTimes open,
            double openAcceptP50,
            double openAcceptP99,
            AnswerTimes closed,
            double closedAnsweredPerSecond,
            double closedAcceptP50,
            double closedAcceptP99) {}

    /** The load shape: sequential requests, the open loop's rate and length, the closed loop's size. */
    record Shape(int sequential, double rate, int seconds, int requests, int concurrency, int warmup) {}

    private final Pipeline pipeline;
    private final PrintStream out;
    private int phase;

    AnswerPhases(Pipeline pipeline, PrintStream out) {
        this.pipeline = pipeline;
        this.out = out;
    }

    /** Opens a sale that cannot sell out during the run, so every request is decided by the stream (Lua), not at the door. */
    Figures run(Shape shape) throws InterruptedException {
        pipeline.openSale(GOODS, 100_000_000L, Duration.ofHours(2), 1);
        warmUp(shape);
        HttpLoad.Result seqAccept = load("one at a time, accept", shape.sequential(), 1, 0, 0);
        HttpLoad.Result seq = load("one at a time, answer", shape.sequential(), 1, 0, WAIT_SECONDS);
        int reference = (int) (shape.rate() * Math.min(shape.seconds(), 10));
        HttpLoad.Result openAccept = load("open loop, accept", reference, shape.concurrency(), shape.rate(), 0);
        HttpLoad.Result open = load(
                "open loop, answer",
                (int) (shape.rate() * shape.seconds()),
                shape.concurrency(),
                shape.rate(),
                WAIT_SECONDS);
        HttpLoad.Result closedAccept = load("closed loop, accept", shape.requests(), shape.concurrency(), 0, 0);
        HttpLoad.Result closed = load("closed loop, answer", shape.requests(), shape.concurrency(), 0, WAIT_SECONDS);
        return new Figures(
                seq.answerTimes(0),
                seqAccept.percentileMillis(50, 0),
                open.answerTimes(0),
                openAccept.percentileMillis(50, 0),
                openAccept.percentileMillis(99, 0),
                closed.answerTimes(0),
                closed.answeredPerSecond(),
                closedAccept.percentileMillis(50, 0),
                closedAccept.percentileMillis(99, 0));
    }

    /**
     * The warm-up: the given number of requests (with {@code Prefer: wait}), then as many again while the JIT compiled
     * for more than {@link #JIT_BUSY} of the last round's time, up to {@link #MAX_WARMUP}. Waiting for an idle JIT is
     * not enough: with the gateway, the stream, the writer and this generator in one JVM on two cores, C2 still took
     * ~50% of a core through an open loop that followed 30,000 and 60,000 warm-up requests (its compile time grew by
     * ~1 s per second 80 s into the run), and the open loop's p99 was 229–352 ms; after 200,000 it took 23% and the
     * p99 was 110 ms. A figure for a service that has been up for a while needs a JIT that is done under load.
     */
    private void warmUp(Shape shape) throws InterruptedException {
        if (shape.warmup() <= 0) return;
        int done = 0;
        double busy;
        do {
            // the JIT's compile time while this round's requests ran (not its connection set-up or the quiet wait)
            HttpLoad.Result r = load("warm-up", shape.warmup(), shape.concurrency(), 0, WAIT_SECONDS);
            busy = r.jitMillis() / Math.max(1.0, r.elapsedNanos() / 1e6);
            done += shape.warmup();
        } while (busy > JIT_BUSY && done + shape.warmup() <= MAX_WARMUP);
        out.printf(
                "  warm-up          %,d requests; the JIT compiled for %.0f%% of the last %,d requests' time%s%n",
                done,
                100 * busy,
                shape.warmup(),
                busy > JIT_BUSY ? " (stopped at the cap of " + String.format("%,d", MAX_WARMUP) + ", not quiet)" : "");
    }

    /** One load; each phase has buyers of its own (10M apart), so no phase runs into the per-user rate limit. */
    private HttpLoad.Result load(String name, int requests, int connections, double rate, int wait)
            throws InterruptedException {
        long firstUser = 1 + (long) (phase++) * 10_000_000L;
        if (requests == 0) connections = 1; // a phase left out (e.g. --seconds 0)
        ProgressBar bar = new ProgressBar(name, requests);
        LoadSpec spec = LoadSpec.closed(
                        pipeline.gatewayPort(),
                        GOODS,
                        requests,
                        connections,
                        Math.max(1, requests),
                        100 + phase,
                        pipeline::bearer)
                .buyers(firstUser, Math.max(1, requests))
                .atRate(rate)
                .waiting(wait)
                .quietJit(JIT_QUIET);
        HttpLoad.Result r = HttpLoad.run(spec, bar::update);
        bar.finish(requests);
        return r;
    }

    static void print(PrintStream out, Shape shape, Figures f) {
        out.printf(
                "  one at a time    %d requests: time to answer %s; accept p50 %.1f ms (answer/accept ×%.1f)%n",
                shape.sequential(),
                f.sequential().percentiles(),
                f.sequentialAcceptP50(),
                ratio(f.sequential().percentileMillis(50), f.sequentialAcceptP50()));
        out.printf(
                "  open loop        %,.0f/s for %d s: time to answer %s%n",
                shape.rate(), shape.seconds(), f.open().percentiles());
        out.printf(
                "                   %s; accept (same rate, own run) p50 %.1f ms p99 %.1f ms (answer/accept p99 ×%.1f)%n",
                f.open().shares(),
                f.openAcceptP50(),
                f.openAcceptP99(),
                ratio(f.open().percentileMillis(99), f.openAcceptP99()));
        if (shape.requests() == 0) return; // left out (--requests 0)
        out.printf(
                "  closed loop      %,d requests, %d clients: %,.0f answers/s, time to answer %s%n",
                shape.requests(),
                shape.concurrency(),
                f.closedAnsweredPerSecond(),
                f.closed().percentiles());
        out.printf(
                "                   %s; accept (same shape, own run) p50 %.1f ms p99 %.1f ms%n",
                f.closed().shares(), f.closedAcceptP50(), f.closedAcceptP99());
    }

    static double ratio(double a, double b) {
        return b <= 0 ? Double.NaN : a / b;
    }
}
