package dev.seckill.infra.bench.gateway;

import java.io.PrintStream;
import java.util.Map;

/** What a phase of {@code bench gateway} measured (percentiles over the requests after its settle), and how it is printed. */
record GatewaySummary(
        long accepted,
        Map<Integer, Long> byStatus,
        long errors,
        long elapsedNanos,
        double p50,
        double p99,
        double p999,
        double gatewayP50,
        double gatewayP99,
        long jitMillis) {
    double acceptedPerSecond() {
        return accepted / (elapsedNanos / 1e9);
    }

    static void report(PrintStream out, GatewaySummary r, String note) {
        out.printf("  HTTP status      %s, transport errors %d%n", r.byStatus(), r.errors());
        out.printf(
                "  accepted         %,d in %.1f s = %,.0f accepted/s%s%n",
                r.accepted(),
                r.elapsedNanos() / 1e9,
                r.acceptedPerSecond(),
                note.isEmpty() ? "" : " (the first 3 s included)");
        out.printf(
                "  accept latency   p50 %.1f ms   p99 %.1f ms   p99.9 %.1f ms%s%n", r.p50(), r.p99(), r.p999(), note);
        out.printf(
                "  in the gateway   p50 ≤ %.1f ms   p99 ≤ %.1f ms (handler → Kafka ack → reply, histogram buckets, whole phase)%n",
                r.gatewayP50(), r.gatewayP99());
        if (r.jitMillis() >= 0)
            out.printf("  JIT              %,d ms spent compiling during the phase%n", r.jitMillis());
    }
}
