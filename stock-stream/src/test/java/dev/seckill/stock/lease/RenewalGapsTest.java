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
        RenewalGaps gaps = new RenewalGaps(400, metrics);
        assertThat(gaps.last()).as("no renewal yet").isZero();

        // Given renewals at 1,000, 1,100 and 1,450 ms (a 350 ms stall before the last)
        gaps.renewed(1_000 * MS);
        gaps.renewed(1_100 * MS);
        gaps.renewed(1_450 * MS);

        // Then two gaps are timed, the longest 350 ms, and the last renewal is the one the watch trusts
        Timer timer = metrics.get("seckill_stream_lease_renewal_gap").timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.max(TimeUnit.MILLISECONDS)).isEqualTo(350.0);
        assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(450.0);
        assertThat(gaps.last()).isEqualTo(1_450 * MS);
    }
}
