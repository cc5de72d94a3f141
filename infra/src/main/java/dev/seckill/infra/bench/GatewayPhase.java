package dev.seckill.infra.bench;

import dev.seckill.gateway.GatewayApp;
import dev.seckill.infra.harness.LoadGenerator;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.RawHttpLoad;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.util.function.LongFunction;

/** One run of the load generator in {@code bench gateway}: {@code rate} 0 for a closed loop; its first {@code settle} requests not counted. */
record GatewayPhase(
        String name,
        long goodsId,
        int requests,
        int concurrency,
        long firstUser,
        int users,
        long seed,
        double rate,
        int settle) {
    /** Runs one phase with its own progress bar; percentiles over the requests after its settle. */
    static GatewaySummary measure(
            GatewayPhase p,
            String generator,
            boolean requestIds,
            GatewayApp gateway,
            PrometheusMeterRegistry gatewayMetrics,
            LongFunction<String> bearer,
            PrintStream out)
            throws InterruptedException {
        ProgressBar bar = new ProgressBar(p.name(), p.requests());
        ServerLatencyWindow inGateway = ServerLatencyWindow.open(gatewayMetrics);
        GatewaySummary summary;
        if (generator.equals("raw")) {
            LoadSpec spec = new LoadSpec(
                    gateway.port(),
                    p.goodsId(),
                    p.requests(),
                    p.concurrency(),
                    p.firstUser(),
                    p.users(),
                    p.seed(),
                    bearer,
                    p.rate(),
                    GatewayBenchmark.JIT_QUIET,
                    requestIds ? "bench-" + p.seed() + "-" : null,
                    0);
            RawHttpLoad.Result r = RawHttpLoad.run(spec, bar::update);
            summary = new GatewaySummary(
                    r.accepted(),
                    r.byStatus(),
                    r.errors(),
                    r.elapsedNanos(),
                    r.percentileMillis(50, p.settle()),
                    r.percentileMillis(99, p.settle()),
                    r.percentileMillis(99.9, p.settle()),
                    inGateway.percentileMillis(0.5),
                    inGateway.percentileMillis(0.99),
                    r.jitMillis());
        } else {
            LoadGenerator.Result r = LoadGenerator.run(
                    gateway.port(),
                    p.goodsId(),
                    p.requests(),
                    p.concurrency(),
                    p.firstUser(),
                    p.users(),
                    p.seed(),
                    bearer,
                    bar::update,
                    p.rate(),
                    false);
            summary = new GatewaySummary(
                    r.accepted(),
                    r.byStatus(),
                    r.errors(),
                    r.elapsedNanos(),
                    r.percentileMillis(50, p.settle()),
                    r.percentileMillis(99, p.settle()),
                    r.percentileMillis(99.9, p.settle()),
                    inGateway.percentileMillis(0.5),
                    inGateway.percentileMillis(0.99),
                    -1);
        }
        bar.finish(p.requests()); // the generator returns once every request has its answer
        return summary;
    }
}
