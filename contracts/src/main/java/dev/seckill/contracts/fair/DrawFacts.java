package dev.seckill.contracts.fair;

import java.time.Instant;

/**
 * What the ledger says of a drawn sale's draw ({@link Fairness#LOTTERY} or {@link Fairness#REGISTRATION})
 * (docs/contracts.md, "The draw").
 *
 * <p>On the OPENED entry, before anyone buys: the window (its length, and {@code windowEndAt}: when it closes), the
 * {@code cutoffAt} (the broker's append time after which no record is an entry: the window's end plus the stream's
 * allowance for late arrivals), and the beacon round whose randomness will seed the draw ({@code beaconChain}, the
 * chain's hash, and {@code beaconRound}, the first round published after the cutoff and a margin) — a round that does
 * not exist while entries can still be placed.
 *
 * <p>On the DRAWN entry, once the cutoff passed and the round was published: the same, and the entries' {@code digest}
 * (the {@link EntryTree} root, hex) and count ({@code entries}), the round's BLS {@code signature} (hex, checked against
 * the chain's public key), the {@code seed} it gives ({@link Draw#seed}), {@code throughOffset} (the last offset of the
 * goods' commands partition the draw had read when it ran) and {@code buyers} (how many tickets, one per buyer).
 */
public record DrawFacts(
        String scheme,
        String fairness,
        long windowMs,
        Instant windowEndAt,
        Instant cutoffAt,
        String beaconChain,
        Long beaconRound,
        String digest,
        Integer entries,
        String signature,
        String seed,
        Long throughOffset,
        Integer buyers) {

    /** The OPENED entry's: the window, the cutoff and the beacon round the draw will take. */
    public static DrawFacts committed(
            Fairness mode, long windowMs, Instant windowEndAt, Instant cutoffAt, String beaconChain, long beaconRound) {
        return new DrawFacts(
                Draw.SCHEME,
                mode.wire(),
                windowMs,
                windowEndAt,
                cutoffAt,
                beaconChain,
                beaconRound,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** The DRAWN entry's: the committed facts, the entries frozen, the round's signature and the seed. */
    public DrawFacts revealed(
            byte[] digest, int entries, byte[] signature, byte[] seed, long throughOffset, int buyers) {
        return new DrawFacts(
                scheme,
                fairness,
                windowMs,
                windowEndAt,
                cutoffAt,
                beaconChain,
                beaconRound,
                Draw.hex(digest),
                entries,
                Draw.hex(signature),
                Draw.hex(seed),
                throughOffset,
                buyers);
    }

    /** When the window opened: {@code windowEndAt - windowMs} (a lottery opens at the start, a registration before it). */
    public Instant windowStartAt() {
        return windowEndAt.minusMillis(windowMs);
    }
}
