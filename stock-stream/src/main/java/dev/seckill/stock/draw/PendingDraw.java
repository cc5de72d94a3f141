package dev.seckill.stock.draw;

import dev.seckill.contracts.fair.Fairness;

/**
 * A sale whose opening window has not been drawn yet, as the {@link DrawHold} keeps it: the open_sale's opId and
 * offset, the sale's start (the seed's), its draw mode, the window (from {@code windowStart}, {@code windowMs} long:
 * from the start for a lottery, before it for a registration), when the draw is due (the window's end + the allowance
 * for late arrivals), and the sequence number of the next command held for the goods.
 */
public record PendingDraw(
        long goodsId,
        String opId,
        long openOffset,
        long startAt,
        Fairness mode,
        long windowStart,
        long windowMs,
        long dueAt,
        long nextSeq) {

    long windowEnd() {
        return windowStart + windowMs;
    }

    PendingDraw next() {
        return new PendingDraw(goodsId, opId, openOffset, startAt, mode, windowStart, windowMs, dueAt, nextSeq + 1);
    }
}
