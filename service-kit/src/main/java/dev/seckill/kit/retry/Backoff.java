package dev.seckill.kit.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The wait between a service's retries of a dependency that refused (Redis, the database, the broker): a step doubling
 * from {@code first} up to {@code cap}, each wait drawn at random from [step/2, step] ("equal jitter") so that
 * instances refused together do not all come back in the same millisecond (a first step of 0: no wait at all, as
 * tests use). One per retry loop (not thread-safe).
 */
public final class Backoff {
    private final long capMillis;
    private long stepMillis;

    public Backoff(Duration first, Duration cap) {
        if (first.isNegative() || cap.compareTo(first) < 0)
            throw new IllegalArgumentException("backoff needs 0 <= first <= cap, got " + first + " and " + cap);
        this.stepMillis = first.toMillis();
        this.capMillis = cap.toMillis();
    }

    /** The next wait in milliseconds, in [step/2, step]; the step then doubles, up to the cap. */
    public long nextMillis() {
        long step = stepMillis;
        stepMillis = Math.min(capMillis, step * 2);
        long half = step / 2;
        return half + ThreadLocalRandom.current().nextLong(step - half + 1);
    }
}
