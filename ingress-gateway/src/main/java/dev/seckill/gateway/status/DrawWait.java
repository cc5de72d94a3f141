package dev.seckill.gateway.status;

import dev.seckill.contracts.fair.DrawFacts;
import java.time.Instant;

/**
 * The draw a purchase waits for, as its answers and the status store tell it (docs/contracts.md, "The draw"): when the
 * window closes ({@code closesAt}, the OPENED entry's {@code windowEndAt}: the answers' {@code drawClosesAt}), the cutoff
 * after which the draw is due ({@code cutoffAt}, the broker append time after which no record is an entry), and the
 * beacon round the draw takes ({@code beaconRound}; null when not known, e.g. read back from an id a gateway issued).
 *
 * <p>Such a purchase is held by the stream until its draw ran, so it is not decided within the pending bound of its
 * acceptance: it stays known (PENDING, not NOT_RECEIVED; its requestId claimed) until {@link #heldUntilMs} — the later of
 * its cutoff and its acceptance, plus the pending bound for the outcome to arrive.
 */
public record DrawWait(Instant closesAt, Instant cutoffAt, Long beaconRound) {
    /** The draw the OPENED entry's facts describe (an entry without a cutoff: due when the window closes). */
    public static DrawWait of(DrawFacts d) {
        return new DrawWait(d.windowEndAt(), d.cutoffAt() != null ? d.cutoffAt() : d.windowEndAt(), d.beaconRound());
    }

    /** Until when a purchase accepted at {@code acceptedAtMs} is known as waiting: its draw due, plus the bound. */
    public long heldUntilMs(long acceptedAtMs, long pendingBoundMs) {
        return Math.max(cutoffAt.toEpochMilli(), acceptedAtMs) + pendingBoundMs;
    }

    /** Whether this is the draw {@code d} describes: the same window end and cutoff (to the millisecond). */
    public boolean sameDraw(DrawFacts d) {
        DrawWait other = of(d);
        return other.closesAt.toEpochMilli() == closesAt.toEpochMilli()
                && other.cutoffAt.toEpochMilli() == cutoffAt.toEpochMilli();
    }
}
