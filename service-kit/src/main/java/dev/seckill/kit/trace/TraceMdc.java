package dev.seckill.kit.trace;

import io.opentelemetry.api.trace.SpanContext;
import org.slf4j.MDC;

/**
 * The trace and span a log line belongs to, in the logging MDC for as long as it is open ({@code traceId},
 * {@code spanId}: the JSON logs' {@code mdc} members, docs/operations.md, "Logs"): a line about one purchase joins its
 * trace from the gateway to the DB row. The span's id is put only when the span is of that trace — a client's own
 * {@code X-Trace-Id}, or a payment that came with no {@code traceparent}, names a trace the spans are not in, and a line
 * must not pair ids of two traces. An empty or null id is left out; closing removes both, so nothing is left on the
 * thread for the next line.
 */
public final class TraceMdc implements AutoCloseable {
    public static final String TRACE_ID = "traceId";
    public static final String SPAN_ID = "spanId";

    private TraceMdc() {}

    /** Puts {@code traceId} (when not null or empty), and {@code span}'s id when it is valid and of that trace. */
    public static TraceMdc put(String traceId, SpanContext span) {
        if (traceId == null || traceId.isEmpty()) return new TraceMdc();
        MDC.put(TRACE_ID, traceId);
        if (span != null && span.isValid() && span.getTraceId().equals(traceId)) MDC.put(SPAN_ID, span.getSpanId());
        return new TraceMdc();
    }

    @Override
    public void close() {
        MDC.remove(TRACE_ID);
        MDC.remove(SPAN_ID);
    }
}
