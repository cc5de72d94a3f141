package dev.seckill.contracts;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/** The {@code traceId} header that travels from the first hop to the DB row. */
public final class TraceHeaders {
    public static final String TRACE_ID = "traceId";

    private TraceHeaders() {}

    public static String newTraceId() { return UUID.randomUUID().toString().replace("-", ""); }

    public static void put(Headers headers, String traceId) {
        headers.remove(TRACE_ID);
        headers.add(TRACE_ID, traceId.getBytes(StandardCharsets.UTF_8));
    }

    /** The trace id of a record, or null when it has none. */
    public static String get(Headers headers) {
        Header h = headers.lastHeader(TRACE_ID);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
