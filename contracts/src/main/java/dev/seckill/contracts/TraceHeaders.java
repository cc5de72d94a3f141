package dev.seckill.contracts;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/** The {@code traceId} header that travels from the first hop to the DB row. */
public final class TraceHeaders {
    public static final String TRACE_ID = "traceId";

    private TraceHeaders() {}

    /**
     * A new W3C-shaped trace id: 32 lower-case hex digits, never all zeros. From {@link ThreadLocalRandom}, as
     * OpenTelemetry's default id generator does: a trace id must be unique, not secret, and {@code UUID.randomUUID()}
     * took a lock shared by every event loop on each request (SecureRandom).
     */
    public static String newTraceId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high;
        long low;
        do {
            high = random.nextLong();
            low = random.nextLong();
        } while (high == 0 && low == 0);
        char[] hex = new char[32];
        hexInto(hex, 0, high);
        hexInto(hex, 16, low);
        return new String(hex);
    }

    private static void hexInto(char[] into, int at, long value) {
        for (int i = 15; i >= 0; i--) {
            into[at + i] = Character.forDigit((int) (value & 0xF), 16);
            value >>>= 4;
        }
    }

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
