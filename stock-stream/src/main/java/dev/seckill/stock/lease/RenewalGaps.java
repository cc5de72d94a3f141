package dev.seckill.stock.lease;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The time between this instance's lease renewals, as its peers see them: a gap past the lease is a lapse they act on
 * (docs/decisions.md, "A dead stream instance noticed in a lease, not a session"). Kept as a timer
 * ({@code seckill_stream_lease_renewal_gap}: its maximum against the lease tells how close a GC pause or a starved core
 * came to a removal), and a gap past three quarters of the lease said in one line.
 */
final class RenewalGaps {
    private static final Logger LOG = LoggerFactory.getLogger(StreamLeases.class);

    private final long leaseMs;
    private final Timer gaps;
    /** The last renewal Redis took (System.nanoTime()); 0: none yet. */
    private volatile long last;

    RenewalGaps(long leaseMs, MeterRegistry metrics) {
        this.leaseMs = leaseMs;
        this.gaps = Timer.builder("seckill_stream_lease_renewal_gap")
                .description("time between this instance's lease renewals; past the lease, its peers remove it")
                .publishPercentiles(0.99, 0.999)
                .distributionStatisticExpiry(Duration.ofMinutes(1))
                .register(metrics);
    }

    /** A renewal Redis took at {@code nanos} (System.nanoTime()). */
    void renewed(long nanos) {
        long before = last;
        last = nanos;
        if (before == 0) return;
        long gapNanos = nanos - before;
        gaps.record(gapNanos, TimeUnit.NANOSECONDS);
        long gapMs = gapNanos / 1_000_000;
        if (4 * gapMs > 3 * leaseMs)
            LOG.warn(
                    "this instance's lease renewed {} ms after its last renewal ({} ms lease; a peer removes it past"
                            + " the lease and two renewals): a pause or a starved core",
                    gapMs,
                    leaseMs);
    }

    /** When Redis last took a renewal (System.nanoTime()); 0: never. */
    long last() {
        return last;
    }
}
