package dev.seckill.stock.draw;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * A command record the {@link DrawHold} keeps until its goods' draw, as it reached the commands partition: its key,
 * bytes, headers (the trace id among them), position and timestamp. Stored as JSON in the hold's changelogged store.
 */
public record HeldCommand(
        String key, byte[] raw, String topic, int partition, long offset, long timestamp, List<HeaderValue> headers) {

    /** One record header (Kafka allows a key twice: kept as a list, in order). */
    public record HeaderValue(String key, byte[] value) {}

    static List<HeaderValue> copy(Headers headers) {
        List<HeaderValue> out = new ArrayList<>();
        for (Header h : headers) out.add(new HeaderValue(h.key(), h.value()));
        return out;
    }

    /** The record's headers, with where it came from ({@link HeldOrigin}) for the decide step. */
    Headers headersWithOrigin() {
        RecordHeaders out = new RecordHeaders();
        if (headers != null) for (HeaderValue h : headers) out.add(h.key(), h.value());
        HeldOrigin.put(out, new HeldOrigin(topic, partition, offset, timestamp));
        return out;
    }
}
