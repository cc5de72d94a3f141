package dev.seckill.infra.bench.gateway;

import dev.seckill.gateway.GatewayApp;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.ProgressBar;
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
        LoadSpec spec = LoadSpec.closed(
                        gateway.port(), p.goodsId(), p.requests(), p.concurrency(), p.users(), p.seed(), bearer)
                .buyers(p.firstUser(), p.users())
                .atRate(p.rate())
                .quietJit(GatewayBenchmark.JIT_QUIET)
                .withRequestIds(requestIds ? "bench-" + p.seed() + "-" : null)
                .via(generator.equals("raw") ? LoadSpec.Generator.RAW : LoadSpec.Generator.VERTX);
        HttpLoad.Result r = HttpLoad.run(spec, bar::update);
        GatewaySummary summary = new GatewaySummary(
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
        bar.finish(p.requests()); // the generator returns once every request has its answer
        return summary;
    }
}
