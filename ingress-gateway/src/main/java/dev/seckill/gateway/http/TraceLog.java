package dev.seckill.gateway.http;

import dev.seckill.kit.trace.TraceMdc;
import org.slf4j.Logger;

/**
 * A warning logged with the request's trace id and its span's id in the MDC ({@link TraceMdc}), so the log line joins
 * the trace from gateway to DB row.
 */
public final class TraceLog {
    private TraceLog() {}

    /** {@code spanId}: the request's span ({@link AcceptSpans#spanId()}), "" with tracing off. */
    public static void warn(Logger log, String traceId, String spanId, String format, Object... args) {
        try (TraceMdc ignored = TraceMdc.put(traceId, spanId)) {
            log.warn(format, args);
        }
    }
}
