package dev.seckill.stock.draw;

import org.apache.kafka.common.header.Headers;

/**
 * The mark the {@link DrawHold} puts on a drawn open it passes on: the decide step decides it at once (draining its batch
 * with it) so that the hold knows whether the open stood before it holds anything. Travels as one header between the
 * two processors of one task, removed before any output; a record from outside never carries it ({@link
 * HeldOrigin#stripped}).
 */
public final class DecideNow {
    public static final String HEADER = "seckill-held-decide-now";

    private DecideNow() {}

    static void put(Headers headers) {
        headers.remove(HEADER);
        headers.add(HEADER, new byte[0]);
    }

    /** Whether the record carries the mark; the mark is removed. */
    public static boolean take(Headers headers) {
        if (headers.lastHeader(HEADER) == null) return false;
        headers.remove(HEADER);
        return true;
    }
}
