package dev.seckill.infra.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.chaos.ChaosTarget.Struck;
import dev.seckill.infra.harness.audit.StrategyAudit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A fault that struck after the buyers' load ended, or that no later purchase felt, fails its scenario: its buyers'
 * side was never measured ("recovered in never" with PASS was possible before). No pipeline; under a second.
 */
@Tag("fast")
class ChaosFaultTimingTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long LOAD_ENDED = 100 * SECOND;

    @Test
    void faultsWhileTheBuyersBoughtAndFeltByThem_areMeasured() {
        List<Struck> faults = List.of(new Struck(40 * SECOND, true), new Struck(50 * SECOND, false));

        assertThat(ChaosTarget.unmeasured(faults, LOAD_ENDED, at -> 120)).isNull();
    }

    @Test
    void aFaultInjectedAfterTheLoadEnded_failsWithHowLate() {
        List<Struck> faults = List.of(new Struck(40 * SECOND, true), new Struck(LOAD_ENDED + 2 * SECOND, false));

        assertThat(ChaosTarget.unmeasured(faults, LOAD_ENDED, at -> 120))
                .isEqualTo("fault 2 was injected 2,000 ms after the buyers' load ended: its buyers' side was never"
                        + " measured");
    }

    @Test
    void aFaultReadFromTheBuyersThatNoLaterPurchaseFelt_fails() {
        List<Struck> faults = List.of(new Struck(99 * SECOND, true));

        assertThat(ChaosTarget.unmeasured(faults, LOAD_ENDED, at -> -1))
                .isEqualTo("fault 1: no purchase sent after it got a final answer (recovered in never): its buyers'"
                        + " side was never measured");
        // a fault whose recovery is its own (a restart, a restore) is not read from the buyers
        assertThat(ChaosTarget.unmeasured(List.of(new Struck(99 * SECOND, false)), LOAD_ENDED, at -> -1))
                .isNull();
    }

    @Test
    void aNeverRecovery_isNotAPass() {
        StrategyAudit clean = new StrategyAudit(300, 0, 0, 0, 300, 0, 0);
        ChaosScenario failover = ChaosScenario.named("redis-failover");

        assertThat(new ChaosRun.Result(failover, 8_000, 8_000, 300, clean, 1, List.of(111L), null).passed())
                .isTrue();
        assertThat(new ChaosRun.Result(failover, 8_000, 8_000, 300, clean, 1, List.of(-1L), null).passed())
                .isFalse();
    }
}
