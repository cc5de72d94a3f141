package dev.seckill.kit.trace;

import org.slf4j.MDC;

/**
 * The trace and span a log line belongs to, in the logging MDC for as long as it is open ({@code traceId},
 * {@code spanId}: the JSON logs' {@code mdc} members, docs/operations.md, "Logs"): a line about one purchase joins its
 * trace from the gateway to the DB row. An empty or null id is left out; closing removes both, so nothing is left on
 * the thread for the next line.
 */
public final class TraceMdc implements AutoCloseable {
    public static final String TRACE_ID = "traceId";
    public static final String SPAN_ID = "spanId";

    private TraceMdc() {}

    /** Puts {@code traceId} and {@code spanId} (each when not null or empty) until closed. */
    public static TraceMdc put(String traceId, String spanId) {
        if (traceId != null && !traceId.isEmpty()) MDC.put(TRACE_ID, traceId);
        if (spanId != null && !spanId.isEmpty()) MDC.put(SPAN_ID, spanId);
        return new TraceMdc();
    }

    @Override
    public void close() {
        MDC.remove(TRACE_ID);
        MDC.remove(SPAN_ID);
    }
}
