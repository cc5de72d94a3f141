package dev.seckill.gateway.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.seckill.gateway.Racing;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class RateLimiterTest {

    /**
     * Limits set for the deployment mean what they say with N replicas behind one balancer. Given the goods'
     * limit 100/s over 2 replicas, when a goods' traffic is spread over both, then each lets its half through (a burst
     * of a tenth of its 50/s), together the configured rate; a buyer's rate and burst are whole on the instance their
     * connection rides.
     */
    @Test
    void givenTwoReplicas_eachEnforcesHalfTheRates_andTheBuyersBurstStaysWhole() {
        RateLimiter one = RateLimiter.forReplica(1_000_000, 100, 1_000_000, 3, 1000, 2);
        int passed = 0;
        for (long u = 1; u <= 100; u++) if (one.check(2001, u) == null) passed++;
        assertThat(passed)
                .as("the goods' burst is a tenth of this replica's 50/s")
                .isEqualTo(5);
        RateLimiter other = RateLimiter.forReplica(1_000_000, 1_000_000, 1, 3, 1000, 2);
        for (int i = 0; i < 3; i++) assertThat(other.check(2002, 9)).isNull();
        RateLimiter.Limited limited = other.check(2002, 9);
        assertThat(limited.scope()).isEqualTo("user");
        assertThat(limited.retryAfterSeconds()).as("1/s, not halved").isEqualTo(1);
        assertThat(catchThrowable(() -> RateLimiter.forReplica(1, 1, 1, 1, 10, 0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SECKILL_GATEWAY_REPLICAS");
    }

    @Test
    void givenAUserOverTheirBurst_thenTheyAreLimitedWithARetryAfter_andOtherUsersAreNot() {
        RateLimiter limiter = new RateLimiter(1_000_000, 1_000_000, 1, 3, 1000);
        for (int i = 0; i < 3; i++) assertThat(limiter.check(1001, 7)).isNull();
        RateLimiter.Limited limited = limiter.check(1001, 7);
        assertThat(limited).isNotNull();
        assertThat(limited.scope()).isEqualTo("user");
        assertThat(limited.retryAfterSeconds()).isEqualTo(1);
        assertThat(limiter.check(1001, 8)).isNull();
    }

    @Test
    void givenManyPassingUsers_thenTheMapStaysBounded_andALimitedUserStaysLimited() {
        RateLimiter limiter = new RateLimiter(1_000_000, 1_000_000, 0.01, 5, 100);
        for (int i = 0; i < 5; i++) limiter.check(1001, 1);
        assertThat(limiter.check(1001, 1)).as("user 1 has used their burst").isNotNull();
        // 5,000 other buyers, once each: their buckets never refill (0.01/s) but none is empty
        for (long u = 2; u < 5_002; u++) limiter.check(1001, u);
        assertThat(limiter.trackedKeys())
                .as("bounded by maxTrackedKeys per map")
                .isLessThanOrEqualTo(2 * 101);
        assertThat(limiter.check(1001, 1))
                .as("user 1, limited, was kept while 5,000 others came and went")
                .isNotNull();
    }

    /** Four event loops race on one user while other keys churn through the bound: the burst is granted exactly once. */
    @RepeatedTest(20)
    void givenRacingLoopsAndPruning_thenALimitedUserGetsExactlyTheirBurst() throws Exception {
        RateLimiter limiter = new RateLimiter(1_000_000, 1_000_000, 0.001, 10, 50);
        AtomicInteger granted = new AtomicInteger();
        Racing.run(4, t -> {
            long offset = t * 10_000L;
            for (int i = 0; i < 2_000; i++) {
                if (limiter.check(1001, 42) == null) granted.incrementAndGet();
                // users 1..: fast refilling would be retired as full; these never refill, so pruning must choose
                limiter.check(1001, 1_000 + offset + i);
            }
        });
        assertThat(granted.get()).isEqualTo(10);
    }

    @Test
    void givenAFullBucketRetired_thenItsUserIsServedByANewOneWithNoExtraTokens() {
        RateLimiter limiter = new RateLimiter(1_000_000, 1_000_000, 1_000_000, 2, 10);
        // fast-refilling users: every bucket is full again within microseconds, so pruning retires them all the time
        int granted = 0;
        for (int round = 0; round < 1_000; round++) {
            for (long u = 1; u <= 30; u++) if (limiter.check(1001, u) == null) granted++;
        }
        assertThat(granted).as("nobody is limited at 1M/s").isEqualTo(30_000);
        assertThat(limiter.trackedKeys()).isLessThanOrEqualTo(11 + 1);
    }

    /** An IPv6 client picks its addresses within its /64: one bucket for the network, not one per address. */
    @Test
    void givenAnIpv6Client_itsWholeSlash64SharesOneReadBucket_anIpv4AddressIsItsOwn() {
        ReadLimiter limiter = new ReadLimiter(0.001, 2, 1000);
        assertThat(limiter.check(null, "2001:db8:1:2::1")).isNull();
        assertThat(limiter.check(null, "2001:db8:1:2:ffff::9")).isNull();
        assertThat(limiter.check(null, "2001:db8:1:2:abcd:1:2:3"))
                .as("a third address of the same /64")
                .isNotNull();
        assertThat(limiter.check(null, "2001:db8:1:3::1")).as("another /64").isNull();
        assertThat(limiter.check(null, "192.0.2.1")).isNull();
        assertThat(limiter.check(null, "192.0.2.2")).isNull();
    }
}
