package dev.seckill.order.write;

import dev.seckill.kit.trace.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The writer's span of each record of a batch (docs/decisions.md, "Tracing"): a CONSUMER span, child of the context the
 * record carried in its {@code traceparent} (the stream's decision span), open from the start of its batch's DB
 * transaction to its commit — the trace's last hop, ending at the order row. A log line written while the record is
 * applied carries its span's id ({@link #spanId}). Made only when tracing is on ({@link #NONE} otherwise).
 */
final class WriteSpans {
    static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system.name");
    static final AttributeKey<Long> BATCH = AttributeKey.longKey("seckill.batch_size");

    /** No spans: tracing is off. */
    static final WriteSpans NONE = new WriteSpans(null);

    private final Map<ConsumerRecord<String, byte[]>, Span> spans;

    private WriteSpans(Map<ConsumerRecord<String, byte[]>, Span> spans) {
        this.spans = spans;
    }

    /** The spans of {@code records}, started now (the start of their transaction). */
    static WriteSpans start(List<ConsumerRecord<String, byte[]>> records) {
        if (!Tracing.on()) return NONE;
        Tracer tracer = Tracing.tracer("dev.seckill.order");
        Map<ConsumerRecord<String, byte[]>, Span> spans = new IdentityHashMap<>(records.size() * 2);
        for (ConsumerRecord<String, byte[]> r : records) {
            Span span = tracer.spanBuilder(r.topic() + " process")
                    .setSpanKind(SpanKind.CONSUMER)
                    .setParent(Tracing.from(r.headers()))
                    .setAttribute(Tracing.MESSAGING_SYSTEM, "kafka")
                    .setAttribute(Tracing.DESTINATION, r.topic())
                    .setAttribute(Tracing.OPERATION, "process")
                    .setAttribute(DB_SYSTEM, "mysql")
                    .setAttribute(BATCH, (long) records.size())
                    .startSpan();
            try {
                span.setAttribute(Tracing.GOODS_ID, Long.parseLong(r.key()));
            } catch (NumberFormatException e) {
                // not a goods' record: no goods attribute
            }
            spans.put(r, span);
        }
        return new WriteSpans(spans);
    }

    /**
     * The span a log line about {@code r} names: its write span, or with tracing off the one its {@code traceparent}
     * names (the stream's decision); invalid when none.
     */
    SpanContext spanOf(ConsumerRecord<String, byte[]> r) {
        Span span = spans == null ? null : spans.get(r);
        return span != null ? span.getSpanContext() : Tracing.spanOf(r.headers());
    }

    /** The batch committed, {@code deadLetters} of its records sent to the DLQ. */
    void written(int deadLetters) {
        if (spans == null) return;
        for (Span span : spans.values()) {
            span.setAttribute("seckill.batch_dead_letters", (long) deadLetters);
            span.end();
        }
    }

    /** The transaction failed (it is retried as a new batch of spans). */
    void failed(Throwable error) {
        if (spans == null) return;
        for (Span span : spans.values()) {
            span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
            span.end();
        }
    }
}
