package dev.seckill.stock;

import dev.seckill.kit.trace.Tracing;
import dev.seckill.stock.decision.Decision;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.time.Instant;
import java.util.function.LongSupplier;
import org.apache.kafka.common.header.Headers;

/**
 * The stream's span of one decided command (docs/decisions.md, "Tracing"): a CONSUMER span, child of the context the
 * command carried in its {@code traceparent} (the gateway's publish span), from the start of its batch's decision to
 * its end, with the goods, the outcome or ledger change, the batch and the time it waited for Redis's Lua answers. Its context replaces the record's
 * {@code traceparent}, so the outcome and ledger entry it produces carry it to the writer. Made only when tracing is on.
 */
final class DecisionSpans {
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("seckill.outcome");
    static final AttributeKey<String> LEDGER = AttributeKey.stringKey("seckill.ledger_type");
    static final AttributeKey<Long> BATCH = AttributeKey.longKey("seckill.batch_size");
    /** How long the decision's batch waited for Redis's answers to its Lua calls (its round trips), in ms. */
    static final AttributeKey<Double> LUA_MS = AttributeKey.doubleKey("seckill.lua_ms");

    private DecisionSpans() {}

    /** A batch's decisions being made: when it began, and what Redis had been waited for by then. */
    record Batch(Instant start, LongSupplier redisWaitNanos, long redisBefore) {
        /** The span of one of the batch's {@code size} decisions, now that they are made. */
        void record(Headers headers, String topic, String key, Decision decision, int size) {
            DecisionSpans.record(headers, topic, key, decision, start, size, redisWaitNanos.getAsLong() - redisBefore);
        }
    }

    /** A batch about to be decided, or null when tracing is off (nothing to record). */
    static Batch begin(LongSupplier redisWaitNanos) {
        return Tracing.on() ? new Batch(Instant.now(), redisWaitNanos, redisWaitNanos.getAsLong()) : null;
    }

    static void record(
            Headers headers,
            String topic,
            String key,
            Decision decision,
            Instant batchStart,
            int batchSize,
            long luaNanos) {
        if (!Tracing.on()) return;
        Tracer tracer = Tracing.tracer("dev.seckill.stock");
        Span span = tracer.spanBuilder(topic + " process")
                .setSpanKind(SpanKind.CONSUMER)
                .setParent(Tracing.from(headers))
                .setStartTimestamp(batchStart)
                .setAttribute(Tracing.MESSAGING_SYSTEM, "kafka")
                .setAttribute(Tracing.DESTINATION, topic)
                .setAttribute(Tracing.OPERATION, "process")
                .setAttribute(BATCH, (long) batchSize)
                .setAttribute(LUA_MS, luaNanos / 1e6)
                .startSpan();
        try {
            span.setAttribute(Tracing.GOODS_ID, Long.parseLong(key));
        } catch (NumberFormatException e) {
            // a record keyed by something else goes to the DLQ; its span says so below
        }
        if (decision.hasOutcome()) {
            span.setAttribute(OUTCOME, String.valueOf(decision.outcome().outcome()));
            span.setAttribute(Tracing.REQUEST_ID, decision.outcome().requestId());
        }
        if (decision.hasLedger())
            span.setAttribute(LEDGER, decision.ledger().type().name());
        if (decision.toDlq()) span.setAttribute(OUTCOME, "DLQ");
        span.end();
        Tracing.into(span, headers);
    }
}
