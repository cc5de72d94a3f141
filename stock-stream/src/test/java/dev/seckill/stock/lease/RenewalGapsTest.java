package dev.seckill.stock.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RenewalGapsTest {
    private static final long MS = 1_000_000;

    /** A 400 ms lease whose peers remove it 600 ms after its last renewal. */
    private static RenewalGaps gaps(SimpleMeterRegistry metrics) {
        return new RenewalGaps(400, 600, metrics);
    }

    @Test
    void theGapsBetweenRenewalsAreTimed_fromTheSecondRenewalOn() {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        RenewalGaps gaps = gaps(metrics);
        assertThat(gaps.last()).as("no renewal yet").isZero();

        // Given renewals sent 450, 350 and 0 ms ago (a 350 ms stall before the last), each answered in 1 ms
        long now = System.nanoTime();
        gaps.renewed(now - 450 * MS, now - 449 * MS, 1);
        gaps.renewed(now - 350 * MS, now - 349 * MS, 1);
        gaps.renewed(now, now + MS, 1);

        // Then two gaps are timed, the longest 350 ms, and the last renewal is the one the watch trusts
        Timer timer = metrics.get("seckill_stream_lease_renewal_gap").timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.max(TimeUnit.MILLISECONDS)).isEqualTo(350.0);
        assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(450.0);
        assertThat(gaps.last()).isEqualTo(now);
        assertThat(gaps.lapses()).as("no gap a peer could remove it in").isZero();
    }

    @Test
    void aGapAsLongAsThePeersWaitIsALapse_oneGoingOnNowToo() {
        RenewalGaps gaps = gaps(new SimpleMeterRegistry());
        long now = System.nanoTime();

        // Given a renewal 10 s ago and none since: a lapse going on (a frozen process that just went on)
        gaps.renewed(now - 10_000 * MS, now - 10_000 * MS, 1);
        assertThat(gaps.lapses()).isEqualTo(1);
        assertThat(gaps.renewedWithin(200)).isFalse();

        // When it renews again, the gap is counted once, and nothing goes on now
        long again = System.nanoTime();
        gaps.renewed(again, again, 1);
        assertThat(gaps.lapses()).isEqualTo(1);
        assertThat(gaps.renewedWithin(60_000)).isTrue();

        // A gap a little shorter than the peers' wait is no lapse
        gaps.renewed(again + 599 * MS, again + 599 * MS, 1);
        assertThat(gaps.lapses()).isEqualTo(1);
    }

    @Test
    void aRenewalRedisTookLate_orOverANewConnection_isALapse() {
        RenewalGaps gaps = gaps(new SimpleMeterRegistry());
        long now = System.nanoTime() - 700 * MS; // the last renewal below is sent about now
        gaps.renewed(now, now, 1);

        // sent 500 ms after the last, but answered 150 ms later (Redis busy): the lease may have been gone 650 ms
        gaps.renewed(now + 500 * MS, now + 650 * MS, 1);
        assertThat(gaps.lapses()).isEqualTo(1);

        // on time, over a connection made again: a peer may have seen the old one close and removed it
        gaps.renewed(now + 600 * MS, now + 601 * MS, 2);
        assertThat(gaps.lapses()).isEqualTo(2);

        // on time, over the same connection: nothing
        gaps.renewed(now + 700 * MS, now + 701 * MS, 2);
        assertThat(gaps.lapses()).isEqualTo(2);
    }
}
