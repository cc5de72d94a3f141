package dev.seckill.stock.draw;

/**
 * A drawn window being passed on to the decide step, as {@link DrawRelease} keeps it: the draw it belongs to, how many
 * of its held commands the draw ordered ({@code ordered}, taken in the draw's order from the stored chunks), how many
 * commands it has passed on ({@code released}), and the sequence number after the last command held — commands of the
 * goods that arrive while it is released are held behind the ordered ones, at {@code nextSeq}, and passed on after them.
 * {@code orderChunk}: how many sequence numbers each stored chunk of the order holds.
 */
record Release(long goodsId, PendingDraw draw, long ordered, int orderChunk, long released, long nextSeq) {
    long firstSeq() {
        return draw.firstSeq();
    }

    /** Commands still to pass on. */
    long remaining() {
        return nextSeq - firstSeq() - released;
    }

    Release passedOne() {
        return new Release(goodsId, draw, ordered, orderChunk, released + 1, nextSeq);
    }

    Release heldOne() {
        return new Release(goodsId, draw, ordered, orderChunk, released, nextSeq + 1);
    }
}
