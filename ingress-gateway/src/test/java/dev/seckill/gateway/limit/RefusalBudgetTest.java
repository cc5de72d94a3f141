package dev.seckill.gateway.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The budget of refused tokens per client address: spent by refusals only (a unit given back is a unit again), one
 * bucket per address (an IPv6 client's /64), off at 0, and a setting that would refuse every new buyer is refused at
 * start in one line naming it.
 */
@Tag("fast")
class RefusalBudgetTest {
    @Test
    void anAddressSpendsItsBurst_unitsGivenBackAreNotSpent_otherAddressesAreUntouched() {
        RefusalBudget budget = new RefusalBudget(0.001, 3, 1000);
        for (int i = 0; i < 10; i++) {
            assertThat(budget.take("192.0.2.8"))
                    .as("a token that verifies, " + i)
                    .isNull();
            budget.giveBack("192.0.2.8");
        }
        for (int i = 0; i < 3; i++) assertThat(budget.take("192.0.2.66")).isNull();
        RateLimiter.Limited limited = budget.take("192.0.2.66");
        assertThat(limited).isNotNull();
        assertThat(limited.scope()).isEqualTo("address");
        assertThat(limited.retryAfterSeconds()).isPositive();
        assertThat(budget.take("192.0.2.8")).isNull();
    }

    @Test
    void anIpv6ClientIsOneBucketPer64() {
        RefusalBudget budget = new RefusalBudget(0.001, 2, 1000);
        assertThat(budget.take("2001:db8:1:2::1")).isNull();
        assertThat(budget.take("2001:db8:1:2::ffff")).isNull();
        assertThat(budget.take("2001:db8:1:2:abcd::9")).as("same /64").isNotNull();
        assertThat(budget.take("2001:db8:1:3::1")).as("another /64").isNull();
    }

    @Test
    void zeroIsOff_andASettingThatWouldRefuseEveryNewBuyerIsRefused() {
        RefusalBudget off = new RefusalBudget(0, 0, 1000);
        for (int i = 0; i < 100; i++) assertThat(off.take("192.0.2.66")).isNull();
        assertThat(off.trackedKeys()).isZero();
        assertThatThrownBy(() -> new RefusalBudget(5, 0, 1000))
                .hasMessage("SECKILL_GATEWAY_LIMIT_REFUSED_TOKENS_BURST must be at least 1, got 0");
        assertThatThrownBy(() -> new RefusalBudget(-1, 10, 1000))
                .hasMessage("SECKILL_GATEWAY_LIMIT_REFUSED_TOKENS_PER_SECOND must be 0 (off) or more, got -1");
    }
}
