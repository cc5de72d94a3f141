package dev.seckill.stock.draw;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
    /** On a drawn window's entry as its release passes it on (not on the other commands held with or behind it). */
    public static final String ENTRY = "seckill-draw-entry";

    static void put(Headers headers, HeldOrigin o) {
        headers.remove(HEADER);
        headers.add(
                HEADER,
                (o.partition + ":" + o.offset + ":" + o.timestamp + ":" + o.topic).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code headers} without the hold's own headers, these and {@link DecideNow}'s (a record from outside must not carry
     * them).
     */
    static Headers stripped(Headers headers) {
        RecordHeaders out = new RecordHeaders();
        for (Header h : headers) if (!ours(h.key())) out.add(h);
        return out;
    }

    /** Whether a header is one the hold puts on what it passes on. */
    static boolean ours(String key) {
        return key.equals(HEADER) || key.equals(ENTRY) || key.equals(DecideNow.HEADER);
    }

    /** The command marked as one of its draw's entries ({@link #takeEntry}). */
    static HeldCommand asEntry(HeldCommand h) {
        List<HeldCommand.HeaderValue> headers = new ArrayList<>(h.headers() == null ? List.of() : h.headers());
        headers.add(new HeldCommand.HeaderValue(ENTRY, new byte[] {1}));
        return new HeldCommand(h.key(), h.raw(), h.topic(), h.partition(), h.offset(), h.timestamp(), headers);
    }

    /** Whether a record is a draw's entry passed on by its release; the mark is removed from its headers. */
    public static boolean takeEntry(Headers headers) {
        if (headers.lastHeader(ENTRY) == null) return false;
        headers.remove(ENTRY);
        return true;
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
