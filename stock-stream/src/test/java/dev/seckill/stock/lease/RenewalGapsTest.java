package dev.seckill.stock.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RenewalGapsTest {
    private static final long MS = 1_000_000;

    @Test
    void theGapsBetweenRenewalsAreTimed_fromTheSecondRenewalOn() {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        RenewalGaps gaps = new RenewalGaps(400, 600, metrics);
        assertThat(gaps.last()).as("no renewal yet").isZero();

        // Given renewals sent 450, 350 and 0 ms ago (a 350 ms stall before the last)
        long now = System.nanoTime();
        gaps.renewed(now - 450 * MS);
        gaps.renewed(now - 350 * MS);
        gaps.renewed(now);

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
        RenewalGaps gaps = new RenewalGaps(400, 600, new SimpleMeterRegistry());
        long now = System.nanoTime();

        // Given a renewal 10 s ago and none since: a lapse going on (a frozen process that just went on)
        gaps.renewed(now - 10_000 * MS);
        assertThat(gaps.lapses()).isEqualTo(1);
        assertThat(gaps.renewedWithin(200)).isFalse();

        // When it renews again, the gap is counted once, and nothing goes on now
        gaps.renewed(now);
        assertThat(gaps.lapses()).isEqualTo(1);
        assertThat(gaps.renewedWithin(200)).isTrue();

        // A gap a little shorter than the peers' wait is no lapse
        gaps.renewed(now + 599 * MS);
        assertThat(gaps.lapses()).isEqualTo(1);
    }
}
