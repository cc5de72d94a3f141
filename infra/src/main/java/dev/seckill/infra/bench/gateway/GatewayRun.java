package dev.seckill.infra.bench.gateway;

import dev.seckill.gateway.GatewayApp;
import dev.seckill.kit.config.Settings;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One gateway of {@code bench gateway}, its buyers holding tokens of one kind ({@link BenchTokens}): a warm-up, rounds
 * more until the JIT settles, the closed loop, then the open loop. Each kind's phases have buyers and requestIds of
 * their own, so that two runs in one namespace meet neither each other's rate limits nor each other's claims.
 */
record GatewayRun(String tokens, List<Long> warmupJit, GatewaySummary closed, GatewaySummary open) {
    /** What every run of one bench does: its sizes, generator and whether requests carry their own requestIds. */
    record Load(
            int requests,
            int concurrency,
            int warmup,
            int settleRounds,
            double rate,
            String generator,
            boolean requestIds) {}

    /** Warm-up rounds after the first, until one compiled less than this (the JVM's own compile-time count). */
    static final long SETTLED_JIT_MILLIS = 100;

    static final int SETTLE_ROUND = 50_000;

    /** Each phase has buyers of its own, so that back-to-back phases do not run into the per-user rate limit. */
    static long firstUserOfPhase(int run, int phase) {
        return 1 + run * 1_000_000_000L + phase * 10_000_000L;
    }

    static GatewayRun measure(Settings s, BenchTokens tokens, int run, Load load, PrintStream out) throws Exception {
        // the open loop opens its own connections and warms its own client: its first 3 seconds are not counted
        // (wrk2 likewise leaves out a calibration period)
        int settle = (int) (load.rate() * 3);
        long seeds = 100L * run;
        GatewayPhase closed = new GatewayPhase(
                "requests",
                1001,
                load.requests(),
                load.concurrency(),
                firstUserOfPhase(run, 0),
                Math.max(1, load.requests() / 2),
                seeds + 2,
                0,
                0);
        GatewayPhase open = new GatewayPhase(
                "at-rate",
                2001,
                settle + load.requests(),
                load.concurrency(),
                firstUserOfPhase(run, 1),
                Math.max(1, (settle + load.requests()) / 2),
                seeds + 3,
                load.rate(),
                settle);
        List<Long> warmupJit = new ArrayList<>();
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (GatewayApp gateway = new GatewayApp(s, metrics).start()) {
            if (load.warmup() > 0) {
                GatewayPhase first = new GatewayPhase(
                        "warm-up " + tokens.kind(),
                        1_000_001,
                        load.warmup(),
                        load.concurrency(),
                        firstUserOfPhase(run, 2),
                        Math.max(1, load.warmup() / 2),
                        seeds + 1,
                        0,
                        0);
                warmupJit.add(phase(first, load, gateway, metrics, tokens, out).jitMillis());
                // then until the JIT has settled: the producer's sender loop runs once per batch, not per request, so
                // its methods reach the C2 compiler only after many seconds of load, whatever the number of requests
                for (int round = 1;
                        round <= load.settleRounds() && warmupJit.get(warmupJit.size() - 1) > SETTLED_JIT_MILLIS;
                        round++) {
                    GatewayPhase more = new GatewayPhase(
                            "settle " + round,
                            1_000_001 + round,
                            SETTLE_ROUND,
                            load.concurrency(),
                            firstUserOfPhase(run, 2 + round),
                            SETTLE_ROUND / 2,
                            seeds + 10 + round,
                            0,
                            0);
                    warmupJit.add(
                            phase(more, load, gateway, metrics, tokens, out).jitMillis());
                }
            }
            GatewaySummary closedLoop = phase(closed, load, gateway, metrics, tokens, out);
            GatewaySummary openLoop = load.rate() > 0 ? phase(open, load, gateway, metrics, tokens, out) : null;
            return new GatewayRun(tokens.kind(), warmupJit, closedLoop, openLoop);
        }
    }

    /** One phase, its buyers' tokens minted before its clock starts. */
    private static GatewaySummary phase(
            GatewayPhase p,
            Load load,
            GatewayApp gateway,
            PrometheusMeterRegistry metrics,
            BenchTokens tokens,
            PrintStream out)
            throws InterruptedException {
        tokens.forget();
        tokens.prepare(p.firstUser(), p.users());
        return GatewayPhase.measure(p, load.generator(), load.requestIds(), gateway, metrics, tokens.bearer(), out);
    }

    void report(PrintStream out, Load load) {
        out.printf("-- buyer tokens %s --%n", tokens.toUpperCase());
        if (!warmupJit.isEmpty()) {
            out.printf(
                    "warm-up            %,d requests%s; JIT compile time per round: %s ms%n",
                    load.warmup(),
                    warmupJit.size() == 1
                            ? ""
                            : String.format(
                                    " + %d rounds of %,d until a round compiled < %d ms (at most %d rounds)",
                                    warmupJit.size() - 1, SETTLE_ROUND, SETTLED_JIT_MILLIS, load.settleRounds()),
                    warmupJit.stream()
                            .map(j -> j < 0 ? "?" : String.format("%,d", j))
                            .collect(Collectors.joining(" / ")));
        }
        out.printf(
                "closed loop        %d clients, each sends its next request when the last is answered (the write-up's JMeter run)%n",
                load.concurrency());
        GatewaySummary.report(out, closed, "");
        if (open != null) {
            out.printf(
                    "open loop          %,.0f requests/s offered over %d connections, latency from when each request was due%n",
                    load.rate(), load.concurrency());
            GatewaySummary.report(out, open, String.format(" (the %,d requests after the first 3 s)", load.requests()));
        }
    }
}
