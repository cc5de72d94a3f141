package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Redis's clock measured against the stream's, on the machine's real Redis: a skew is seen, with its sign, as a gauge. */
class RedisClockWatchTest extends TestRedisCase {
    @Test
    void aStreamClockTenMinutesBehind_readsAsRedisTenMinutesAhead_onTheGauge() {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-10));
        long skew = new RedisClockWatch(redis.redis, redis.keys, behind, metrics).check();
        assertThat(skew).isBetween(600_000L - 1_000, 600_000L + 1_000);
        assertThat(metrics.get("seckill_redis_clock_skew_seconds").gauge().value())
                .isBetween(599.0, 601.0);
    }

    @Test
    void theSameClock_readsAsNoSkew() {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        long skew = new RedisClockWatch(redis.redis, redis.keys, Clock.systemUTC(), metrics).check();
        assertThat(Math.abs(skew)).isLessThan(RedisClockWatch.REPORTED.toMillis());
    }
}
