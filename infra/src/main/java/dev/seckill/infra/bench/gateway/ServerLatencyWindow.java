package dev.seckill.infra.bench.gateway;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's own accept latency (request handled → Kafka ack → reply written) over one benchmark phase: the
 * difference of two snapshots of its {@code seckill_gateway_accept_latency} histogram. Next to the client-side
 * figure it tells the gateway and Kafka apart from queueing in front of them (event loops busy, load generator).
 */
final class ServerLatencyWindow {
    private final Timer timer;
    private final CountAtBucket[] before;
    private final long countBefore;

    private ServerLatencyWindow(Timer timer) {
        this.timer = timer;
        HistogramSnapshot snapshot = timer == null ? null : timer.takeSnapshot();
        this.before = snapshot == null ? new CountAtBucket[0] : snapshot.histogramCounts();
        this.countBefore = snapshot == null ? 0 : snapshot.count();
    }

    static ServerLatencyWindow open(MeterRegistry metrics) {
        return new ServerLatencyWindow(metrics.find("seckill_gateway_accept_latency")
                .tag("kind", "accepted")
                .timer());
    }

    /** The q-quantile (0..1) in ms of what was recorded since {@link #open}: the upper bound of its bucket; NaN if none. */
    double percentileMillis(double q) {
        if (timer == null) return Double.NaN;
        HistogramSnapshot snapshot = timer.takeSnapshot();
        CountAtBucket[] after = snapshot.histogramCounts();
        double total = snapshot.count() - countBefore;
        if (total <= 0 || after.length == 0) return Double.NaN;
        for (int i = 0; i < after.length; i++) {
            double cumulative = after[i].count() - (i < before.length ? before[i].count() : 0);
            if (cumulative >= q * total) return after[i].bucket(TimeUnit.MILLISECONDS);
        }
        return after[after.length - 1].bucket(TimeUnit.MILLISECONDS);
    }
}
