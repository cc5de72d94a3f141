package dev.seckill.stock.draw;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Where a command released by the {@link DrawHold} came from: the decide step judges it at its own position in the
 * goods' partition (its stored decision, the keys' marker, the DLQ's source), not at the record being processed when
 * the draw ran. Travels as one header between the two processors of one task, removed before any output.
 */
public record HeldOrigin(String topic, int partition, long offset, long timestamp) {
    public static final String HEADER = "seckill-held-origin";

    static void put(Headers headers, HeldOrigin o) {
        headers.remove(HEADER);
        headers.add(
                HEADER,
                (o.partition + ":" + o.offset + ":" + o.timestamp + ":" + o.topic).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code headers} without the hold's own headers, this and {@link DecideNow}'s (a record from outside must not carry them). */
    static Headers stripped(Headers headers) {
        RecordHeaders out = new RecordHeaders();
        for (Header h : headers) if (!h.key().equals(HEADER) && !h.key().equals(DecideNow.HEADER)) out.add(h);
        return out;
    }

    /** The origin a released record carries, removed from its headers; null for a record that was never held. */
    public static HeldOrigin take(Headers headers) {
        Header h = headers.lastHeader(HEADER);
        if (h == null) return null;
        headers.remove(HEADER);
        String[] p = new String(h.value(), StandardCharsets.UTF_8).split(":", 4);
        return new HeldOrigin(p[3], Integer.parseInt(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]));
    }
}
