package dev.seckill.gateway.http;

import dev.seckill.kit.trace.TraceMdc;
import io.opentelemetry.api.trace.SpanContext;
import org.slf4j.Logger;

/**
 * A warning logged with the request's trace id — the one its {@code X-Trace-Id} answer header gave the client — and,
 * when the request's span is of that trace, the span's id ({@link TraceMdc}), so the log line joins the trace from
 * gateway to DB row.
 */
public final class TraceLog {
    private TraceLog() {}

    /** {@code span}: the request's span ({@link AcceptSpans#span()}), invalid with tracing off. */
    public static void warn(Logger log, String traceId, SpanContext span, String format, Object... args) {
        try (TraceMdc ignored = TraceMdc.put(traceId, span)) {
            log.warn(format, args);
        }
    }
}
