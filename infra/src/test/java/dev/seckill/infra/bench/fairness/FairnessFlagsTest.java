package dev.seckill.infra.bench.fairness;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.infra.harness.Flags;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code bench fairness} refuses the flags under which its verdict could not fail, naming the flag, and sends each
 * group no earlier than its moment (one sent early is no entry of the draw).
 */
@Tag("fast")
class FairnessFlagsTest {
    @Test
    void aUnitForEveryBuyer_orNoBots_isRefused() {
        assertThatThrownBy(() -> FairnessBenchmark.refuseVacuous(100, 200, 50))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessageContaining("--units")
                .hasMessageContaining("not tested");
        assertThatThrownBy(() -> FairnessBenchmark.refuseVacuous(100, 150, 50))
                .as("the crowd sale has 50 bots + 100 people: 150 units is one each")
                .isInstanceOf(Flags.UsageError.class)
                .hasMessageContaining("--units");
        assertThatThrownBy(() -> FairnessBenchmark.refuseVacuous(100, 10, 0))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessageContaining("--bots")
                .hasMessageContaining("not tested");
    }

    @Test
    void theDefaultsAndFewerUnitsThanBuyersAreTaken() {
        assertThatCode(() -> FairnessBenchmark.refuseVacuous(2_500, 1_000, 100)).doesNotThrowAnyException();
        assertThatCode(() -> FairnessBenchmark.refuseVacuous(100, 149, 50)).doesNotThrowAnyException();
    }

    @Test
    void aGroupIsNeverSentBeforeItsMoment() throws Exception {
        for (int i = 0; i < 50; i++) {
            java.time.Instant at = java.time.Instant.now().plusNanos(1_500_000 + i * 10_000L);
            FairSale.sleepUntil(at);
            org.assertj.core.api.Assertions.assertThat(java.time.Instant.now()).isAfterOrEqualTo(at);
        }
    }
}
