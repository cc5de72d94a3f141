package dev.seckill.stock.draw;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.stock.draw.beacon.BeaconChain;
import dev.seckill.stock.draw.beacon.BeaconSource;
import java.time.Duration;
import java.time.Instant;

/**
 * How this stream draws (docs/contracts.md, "The draw"): the public beacon whose round seeds each draw, the allowance
 * after a window's end during which a purchase accepted in it may still be appended (window end + allowance = the
 * cutoff, on the broker's append time), and the margin after the cutoff before the round the draw takes. With no
 * beacon ({@link #OFF}) drawn opens are refused. {@code releaseChunk}: see {@link #RELEASE_CHUNK}.
 */
public record DrawTerms(BeaconSource beacon, Duration allowance, Duration margin, int releaseChunk) {
    /**
     * Held commands a drawn window passes on per transaction ({@link DrawRelease}): each becomes an outcome, a ledger
     * entry and its stores' changelog records, so 10,000 stay far inside the 10 s transaction timeout (~700k did not).
     */
    public static final int RELEASE_CHUNK = 10_000;

    public static final DrawTerms OFF = new DrawTerms(null, Duration.ofSeconds(1), Duration.ofSeconds(1));

    public DrawTerms(BeaconSource beacon, Duration allowance, Duration margin) {
        this(beacon, allowance, margin, RELEASE_CHUNK);
    }

    public boolean drawing() {
        return beacon != null;
    }

    /**
     * What the OPENED entry of {@code open} promises: its window, the cutoff, and the beacon round the draw will take —
     * the first published after the cutoff and the margin, so it did not exist while entries could be placed.
     */
    public DrawFacts committed(OpenSale open) {
        BeaconChain chain = beacon.chain();
        Instant cutoff = open.windowEnd().plus(allowance);
        long round = chain.firstRoundAfter(cutoff.plus(margin).toEpochMilli());
        return DrawFacts.committed(open.fairness(), open.windowMs(), open.windowEnd(), cutoff, chain.hash(), round);
    }
}
