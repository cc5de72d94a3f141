package dev.seckill.kit.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void eachWaitIsWithinHalfItsStepToItsStep_andTheStepDoublesUpToTheCap() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(1000));
        long[] steps = {100, 200, 400, 800, 1000, 1000, 1000};
        for (long step : steps) assertThat(b.nextMillis()).isBetween(step / 2, step);
    }

    @Test
    void waitsAreSpreadNotAllTheSame() {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 50; i++)
            seen.add(new Backoff(Duration.ofMillis(1000), Duration.ofMillis(1000)).nextMillis());
        assertThat(seen).hasSizeGreaterThan(10);
    }

    @Test
    void aCapBelowTheFirstStepOrANegativeStepIsRefused_andAZeroStepNeverWaits() {
        assertThatThrownBy(() -> new Backoff(Duration.ofMillis(100), Duration.ofMillis(50)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofMillis(-1), Duration.ofMillis(50)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new Backoff(Duration.ZERO, Duration.ZERO).nextMillis()).isZero();
    }
}
