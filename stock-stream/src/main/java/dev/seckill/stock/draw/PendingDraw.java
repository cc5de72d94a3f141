package dev.seckill.stock.draw;

import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;

/**
 * A sale whose opening window has not been drawn yet, as the {@link DrawHold} keeps it: the open_sale's opId and
 * offset, the sale's start, its draw mode, the window's start, what the OPENED entry promised ({@code facts}: the
 * window's end, the cutoff, the beacon round), whether the cutoff has passed ({@code closed}: a record appended after
 * it was read, or the wall clock passed it on a quiet partition), the sequence number of the next command held, and of
 * its first ({@code firstSeq}: 0, or past the commands of an earlier draw of the goods still being released).
 */
public record PendingDraw(
        long goodsId,
        String opId,
        long openOffset,
        long startAt,
        Fairness mode,
        long windowStart,
        DrawFacts facts,
        boolean closed,
        long nextSeq,
        long firstSeq) {

    long windowMs() {
        return facts.windowMs();
    }

    long cutoffAt() {
        return facts.cutoffAt().toEpochMilli();
    }

    long round() {
        return facts.beaconRound();
    }

    /** Whether any command is held for it. */
    boolean holdsAny() {
        return nextSeq > firstSeq;
    }

    PendingDraw next() {
        return new PendingDraw(
                goodsId, opId, openOffset, startAt, mode, windowStart, facts, closed, nextSeq + 1, firstSeq);
    }

    PendingDraw close() {
        return new PendingDraw(goodsId, opId, openOffset, startAt, mode, windowStart, facts, true, nextSeq, firstSeq);
    }
}
