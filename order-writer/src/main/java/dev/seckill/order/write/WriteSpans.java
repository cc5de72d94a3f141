package dev.seckill.order.write;

import dev.seckill.kit.trace.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The writer's span of each record it wrote (docs/decisions.md, "Tracing"): a CONSUMER span, child of the context the
 * record carried in its {@code traceparent} (the stream's decision span), from the start of its batch's DB
 * transaction to its commit — the trace's last hop, ending at the order row. Made only when tracing is on.
 */
final class WriteSpans {
    static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system.name");
    static final AttributeKey<Long> BATCH = AttributeKey.longKey("seckill.batch_size");

    private WriteSpans() {}

    static void written(List<ConsumerRecord<String, byte[]>> records, Instant start, int deadLetters) {
        if (!Tracing.on()) return;
        Tracer tracer = Tracing.tracer("dev.seckill.order");
        for (ConsumerRecord<String, byte[]> r : records) {
            Span span = tracer.spanBuilder(r.topic() + " process")
                    .setSpanKind(SpanKind.CONSUMER)
                    .setParent(Tracing.from(r.headers()))
                    .setStartTimestamp(start)
                    .setAttribute(Tracing.MESSAGING_SYSTEM, "kafka")
                    .setAttribute(Tracing.DESTINATION, r.topic())
                    .setAttribute(Tracing.OPERATION, "process")
                    .setAttribute(DB_SYSTEM, "mysql")
                    .setAttribute(BATCH, (long) records.size())
                    .setAttribute("seckill.batch_dead_letters", (long) deadLetters)
                    .startSpan();
            try {
                span.setAttribute(Tracing.GOODS_ID, Long.parseLong(r.key()));
            } catch (NumberFormatException e) {
                // not a goods' record: no goods attribute
            }
            span.end();
        }
    }
}
