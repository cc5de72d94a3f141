package dev.seckill.infra.bench.coldstart;

import dev.seckill.infra.bench.Targets;
import java.io.PrintStream;
import java.util.List;

/** The table of {@code bench coldstart}: each variant's accept latency, first second and overall, with ratios to the warmed one. */
final class ColdStartReport {
    private ColdStartReport() {}

    static void print(PrintStream out, List<ColdStartBenchmark.Outcome> outcomes, int requests, int concurrency) {
        ColdStartBenchmark.Outcome warmed = outcomes.stream()
                .filter(o -> o.variant().trafficFirst() > 0)
                .findFirst()
                .orElse(null);
        out.printf(
                "%n== bench coldstart: %,d requests, %d connections, accept latency (request sent -> answer) ==%n",
                requests, concurrency);
        out.printf(
                "%-20s %12s %12s %10s %26s %24s %10s %10s%n",
                "variant",
                "ready gw/ss",
                "1st s reqs",
                "accepted",
                "1st second p50 / p99",
                "overall p50 / p99",
                "1st p99 ×",
                "all p99 ×");
        for (ColdStartBenchmark.Outcome o : outcomes) {
            SaleLatency s = o.sale();
            out.printf(
                    "%-20s %5.1f/%4.1f s %12s %10s %11.1f / %8.1f ms %10.1f / %8.1f ms %10s %10s%n",
                    o.variant().name(),
                    o.gatewayReadyMs() / 1000.0,
                    o.streamReadyMs() / 1000.0,
                    String.format("%,d", s.firstSecondRequests()),
                    String.format("%,d", s.accepted()),
                    s.firstP50(),
                    s.firstP99(),
                    s.p50(),
                    s.p99(),
                    warmed == null
                            ? "-"
                            : String.format("%.2f", s.firstP99() / warmed.sale().firstP99()),
                    warmed == null
                            ? "-"
                            : String.format("%.2f", s.p99() / warmed.sale().p99()));
        }
        for (ColdStartBenchmark.Outcome o : outcomes) {
            out.printf(
                    "%-20s answers %s in %.1f s%s%n",
                    o.variant().name(),
                    o.sale().byStatus(),
                    o.sale().seconds(),
                    o.warmups().isBlank() ? "" : "; " + o.warmups());
        }
        if (warmed != null) {
            outcomes.stream()
                    .filter(o -> o.variant().selfWarm())
                    .findFirst()
                    .ifPresent(o -> out.printf(
                            "target             first-second p99 with warm-up %s of the warmed one: %.1f ms vs %.1f ms → %s%n",
                            Targets.COLD_START.bound(),
                            o.sale().firstP99(),
                            warmed.sale().firstP99(),
                            Targets.COLD_START.verdict(
                                    o.sale().firstP99() / warmed.sale().firstP99())));
        }
        out.println(
                "\"1st s reqs\": the requests sent in the sale's first second (connections + answers within it); × = ratio to "
                        + "the warmed variant. Ready: JVM start to /health 200 (gateway / stock-stream).");
    }
}
