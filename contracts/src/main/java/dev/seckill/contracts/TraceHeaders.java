package dev.seckill.contracts;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The {@code traceId} header that travels from the first hop to the DB row. What it may hold is bounded where it enters
 * (the gateway's request headers, an upstream producer's record headers): 1–64 of {@code [A-Za-z0-9._-]}, or a W3C
 * {@code traceparent} whose trace id is taken; anything else is dropped, never carried into a column where it could sink
 * the row it travels with.
 */
public final class TraceHeaders {
    public static final String TRACE_ID = "traceId";
    /** The W3C Trace Context header (the OpenTelemetry messaging conventions): its trace id when no traceId is set. */
    public static final String TRACEPARENT = "traceparent";

    private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern W3C_PARENT = Pattern.compile("[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}");

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

    /**
     * The trace id of a record — its {@code traceId} when well-formed ({@link #bounded}), else its {@code traceparent}'s
     * trace id (an upstream producer that speaks W3C Trace Context sets only that) — or null.
     */
    public static String get(Headers headers) {
        Header h = headers.lastHeader(TRACE_ID);
        String given = h == null || h.value() == null || h.value().length > 64
                ? null
                : bounded(new String(h.value(), StandardCharsets.UTF_8));
        return given != null ? given : fromTraceparent(headers.lastHeader(TRACEPARENT));
    }

    private static String fromTraceparent(Header h) {
        if (h == null || h.value() == null || h.value().length > 64) return null;
        Matcher parent = W3C_PARENT.matcher(new String(h.value(), StandardCharsets.UTF_8).trim());
        return parent.matches() ? parent.group(1) : null;
    }

    /**
     * A trace id as given, when it is 1–64 of {@code [A-Za-z0-9._-]}; the trace id of a W3C {@code traceparent}; else
     * null (dropped).
     */
    public static String bounded(String given) {
        if (given == null) return null;
        String t = given.trim();
        Matcher parent = W3C_PARENT.matcher(t);
        if (parent.matches()) return parent.group(1);
        return WELL_FORMED.matcher(t).matches() ? t : null;
    }
}
