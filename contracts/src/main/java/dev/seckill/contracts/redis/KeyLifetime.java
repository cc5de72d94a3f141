package dev.seckill.contracts.redis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * How long a sale's Redis keys live: until the later of the sale's end and the moment they are written, plus a
 * grace (the write-up: keys outlive the sale, e.g. by a day, so late payments and releases still find its buyers).
 * Measured from the write as well as from the end, so a sale re-opened after its recorded window (a replay drill of
 * a recording, a restore of an ended sale) lives a grace from now instead of vanishing the instant it is written.
 * The clock is injected: stock-stream writes with it and the reconciler judges "ended and retired" with the same rule.
 */
public record KeyLifetime(Duration grace, Clock clock) {
    /** The grace after a sale's end when {@code sale.key.grace.ms} is not set: one day. */
    public static final Duration DEFAULT_GRACE = Duration.ofDays(1);
    /** The setting that changes the grace ({@code SECKILL_SALE_KEY_GRACE_MS}; declared in the service kit's SharedSettings). */
    public static final String GRACE_SETTING = "sale.key.grace.ms";

    public KeyLifetime {
        if (grace.isNegative() || grace.isZero())
            throw new IllegalArgumentException(GRACE_SETTING + " must be positive: " + grace);
    }

    public static KeyLifetime standard() {
        return new KeyLifetime(DEFAULT_GRACE, Clock.systemUTC());
    }

    /** When keys written now for a sale ending at {@code endAtMs} expire (epoch ms). */
    public long expireAt(long endAtMs) {
        return Math.max(endAtMs, clock.millis()) + grace.toMillis();
    }

    /** As {@link #expireAt(long)}. */
    public Instant expireAt(Instant endAt) {
        return Instant.ofEpochMilli(expireAt(endAt.toEpochMilli()));
    }

    /** True when keys that expire at {@code expireAtMs} are gone by now (Redis has retired them). */
    public boolean retired(long expireAtMs) {
        return expireAtMs > 0 && clock.millis() >= expireAtMs;
    }
}
