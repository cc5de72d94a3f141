package dev.seckill.contracts.fair;

import java.time.Instant;

/**
 * What the ledger says of a {@link Fairness#LOTTERY} sale's draw (docs/contracts.md, "The draw"). On the OPENED entry:
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
    public static DrawFacts committed(long windowMs, Instant windowEndAt, String commitment) {
        return new DrawFacts(Fairness.LOTTERY.wire(), windowMs, windowEndAt, commitment, null, null, null);
    }

    /** The DRAWN entry's: the seed revealed, the purchases it took. */
    public static DrawFacts revealed(
            long windowMs, Instant windowEndAt, String commitment, byte[] seed, long throughOffset, int buyers) {
        return new DrawFacts(
                Fairness.LOTTERY.wire(), windowMs, windowEndAt, commitment, Draw.hex(seed), throughOffset, buyers);
    }
}
