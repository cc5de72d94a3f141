package dev.seckill.stock.lease;

import dev.seckill.stock.decision.OwnLease;
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
final class RenewalGaps implements OwnLease {
    private static final Logger LOG = LoggerFactory.getLogger(StreamLeases.class);

    private final long leaseMs;
    /** A gap this long (ms) lets a peer remove this instance: the lease and the peers' grace. */
    private final long removableMs;

    private final Timer gaps;
    /** The lapses counted so far (guarded by this). */
    private long lapses;
    /** The renewal connection the last renewal came over (its count of connections made); -1: none yet. */
    private long over = -1;
    /** When the last renewal Redis took was sent (System.nanoTime()); 0: none yet. */
    private volatile long last;

    RenewalGaps(long leaseMs, long removableMs, MeterRegistry metrics) {
        this.leaseMs = leaseMs;
        this.removableMs = removableMs;
        this.gaps = Timer.builder("seckill_stream_lease_renewal_gap")
                .description("time between this instance's lease renewals; past the lease, its peers remove it")
                .publishPercentiles(0.99, 0.999)
                .distributionStatisticExpiry(Duration.ofMinutes(1))
                .register(metrics);
    }

    /**
     * A renewal Redis took: sent at {@code sent}, its reply read at {@code replied} (System.nanoTime()), over the
     * renewal connection numbered {@code over}. A lapse is counted when the lease may have been missing for as long as
     * the peers wait: from the last renewal's send (the lease runs from no earlier) to this one's reply (Redis set it no
     * later) — or when the connection is another than the last renewal's (a peer sees a closed connection as a process
     * that ended, and removes it at once).
     */
    synchronized void renewed(long sent, long replied, long over) {
        long before = last;
        boolean reconnected = this.over >= 0 && over != this.over;
        this.over = over;
        if (before != 0 && (replied - before >= removableMs * 1_000_000 || reconnected)) lapses++;
        last = sent;
        if (before == 0) return;
        long gapNanos = sent - before;
        gaps.record(gapNanos, TimeUnit.NANOSECONDS);
        long gapMs = gapNanos / 1_000_000;
        if (4 * gapMs > 3 * leaseMs)
            LOG.warn(
                    "this instance's lease renewed {} ms after its last renewal ({} ms lease; a peer removes it past"
                            + " the lease and two renewals): a pause or a starved core",
                    gapMs,
                    leaseMs);
    }

    /** Whether Redis took a renewal sent in the last {@code ms}. */
    boolean renewedWithin(long ms) {
        long renewed = last;
        return renewed != 0 && System.nanoTime() - renewed < ms * 1_000_000;
    }

    /** When the last renewal Redis took was sent (System.nanoTime()); 0: never. */
    long last() {
        return last;
    }

    /** The gaps a peer could have removed this instance in, and the one going on now if it is as long. */
    @Override
    public synchronized long lapses() {
        return last != 0 && System.nanoTime() - last >= removableMs * 1_000_000 ? lapses + 1 : lapses;
    }
}
