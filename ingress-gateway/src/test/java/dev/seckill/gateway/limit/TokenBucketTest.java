package dev.seckill.gateway.limit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.gateway.Racing;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class TokenBucketTest {
    static final long SECOND = 1_000_000_000L;

    @Test
    void refillsAtItsRateUpToItsBurst_andSaysHowLongToWait() {
        TokenBucket b = new TokenBucket(2, 3, 0);
        for (int i = 0; i < 3; i++) assertThat(b.tryTake(0)).isZero();
        assertThat(b.tryTake(0)).as("empty: half a second to the next token").isEqualTo(SECOND / 2);
        assertThat(b.tryTake(SECOND)).isZero();
        assertThat(b.tryTake(SECOND)).isZero();
        assertThat(b.tryTake(SECOND)).isPositive();
        assertThat(b.retireIfAtLeast(Double.MAX_VALUE, 10 * SECOND))
                .as("refilled to its burst of 3, not 20")
                .isTrue();
        assertThat(b.tryTake(10 * SECOND)).isEqualTo(TokenBucket.RETIRED);
    }

    @Test
    void aBucketWithTokensTakenIsNotRetiredAsFull() {
        TokenBucket b = new TokenBucket(1, 5, 0);
        b.tryTake(0);
        assertThat(b.retireIfAtLeast(Double.MAX_VALUE, 0)).isFalse();
        assertThat(b.retireIfAtLeast(1, 0)).as("it still has 4").isTrue();
    }

    @Test
    void racingTakersGetExactlyTheBurst() throws Exception {
        TokenBucket b = new TokenBucket(0.000_001, 1_000, System.nanoTime());
        AtomicInteger granted = new AtomicInteger();
        Racing.run(4, t -> {
            for (int i = 0; i < 10_000; i++) if (b.tryTake(System.nanoTime()) == 0) granted.incrementAndGet();
        });
        assertThat(granted.get()).isEqualTo(1_000);
    }
}
