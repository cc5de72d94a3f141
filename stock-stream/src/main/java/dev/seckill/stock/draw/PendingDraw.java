package dev.seckill.stock.draw;

/**
 * A lottery sale whose window has not been drawn yet, as the {@link DrawHold} keeps it: the open_sale's opId and
 * offset, its start, when its window closes, when the draw is due (window end + the allowance for late arrivals), and
 * the sequence number of the next command held for the goods.
 */
public record PendingDraw(
        long goodsId, String opId, long openOffset, long startAt, long windowMs, long dueAt, long nextSeq) {

    long windowEnd() {
        return startAt + windowMs;
    }

    PendingDraw next() {
        return new PendingDraw(goodsId, opId, openOffset, startAt, windowMs, dueAt, nextSeq + 1);
    }
}
