package dev.seckill.contracts.fair;

import java.time.Instant;

/**
 * What the ledger says of a sale's draw ({@link Fairness#LOTTERY} or {@link Fairness#REGISTRATION}) (docs/contracts.md, "The draw"). On the OPENED entry:
 * the window (its length, and {@code windowEndAt}: when it closes) and the {@code commitment} ({@code SHA-256(seed)}),
 * before anyone buys. On the DRAWN entry, when the window closed: the same, the revealed {@code seed} (hex),
 * {@code throughOffset} (the last offset of the goods' commands partition the draw took purchases up to: a window
 * purchase at or before it was drawn, a later one was decided after the draw) and {@code buyers} (how many tickets,
 * one per buyer).
 */
public record DrawFacts(
        String fairness,
        long windowMs,
        Instant windowEndAt,
        String commitment,
        String seed,
        Long throughOffset,
        Integer buyers) {

    /** The OPENED entry's: the window (its length and when it closes) and the promise of a seed. */
    public static DrawFacts committed(Fairness mode, long windowMs, Instant windowEndAt, String commitment) {
        return new DrawFacts(mode.wire(), windowMs, windowEndAt, commitment, null, null, null);
    }

    /** The DRAWN entry's: the seed revealed, the purchases it took. */
    public static DrawFacts revealed(
            Fairness mode,
            long windowMs,
            Instant windowEndAt,
            String commitment,
            byte[] seed,
            long throughOffset,
            int buyers) {
        return new DrawFacts(mode.wire(), windowMs, windowEndAt, commitment, Draw.hex(seed), throughOffset, buyers);
    }

    /** When the window opened: {@code windowEndAt - windowMs} (a lottery opens at the start, a registration before it). */
    public Instant windowStartAt() {
        return windowEndAt.minusMillis(windowMs);
    }
}
