package dev.seckill.order.consume;

import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.dlq.DeadLetters;
import dev.seckill.kit.retry.Backoff;
import dev.seckill.kit.trace.TraceMdc;
import dev.seckill.kit.trace.Tracing;
import dev.seckill.order.OrderWriterSettings;
import dev.seckill.order.write.DeadLetter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a record that can never be written to {@code <p>dlq}: its key, value and headers, and the dead-letter headers
 * ({@link DeadLetters}). Retried with backoff ({@code writer.dlq.attempts}, {@code writer.dlq.backoff.ms} doubling, at
 * most 5 s); when the DLQ still cannot be written it throws, which ends the consumer loop (fatal). Used on the consumer
 * thread only. Its log lines carry the record's traceId (MDC), as the lines written while the record was applied do.
 */
public final class DeadLetterWriter {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterWriter.class);

    private final Producer<String, byte[]> producer;
    private final String dlqTopic;
    private final int attempts;
    private final long firstBackoffMs;
    private final MeterRegistry metrics;
    private final Counter deadLetters;

    public DeadLetterWriter(
            Producer<String, byte[]> producer, String dlqTopic, OrderWriterSettings config, MeterRegistry metrics) {
        this.producer = producer;
        this.dlqTopic = dlqTopic;
        this.attempts = Math.max(1, config.dlqAttempts());
        this.firstBackoffMs = config.dlqBackoffMs();
        this.metrics = metrics;
        // at 0 from the start: a series born at 1 shows Prometheus no increase, so SeckillDlqGrowing would miss the
        // writer's first dead letter (stock-stream's counter is registered the same way)
        this.deadLetters = metrics.counter("seckill_dlq_records", "source", "order-writer");
    }

    void send(DeadLetter dead) {
        ConsumerRecord<String, byte[]> source = dead.record();
        ProducerRecord<String, byte[]> out = new ProducerRecord<>(dlqTopic, source.key(), source.value());
        source.headers().forEach(h -> out.headers().add(h));
        DeadLetters.mark(out.headers(), dead.reason(), source.topic(), source.partition(), source.offset());
        Backoff backoff =
                new Backoff(Duration.ofMillis(firstBackoffMs), Duration.ofMillis(Math.max(firstBackoffMs, 5000)));
        for (int attempt = 1; ; attempt++) {
            try {
                producer.send(out).get(30, TimeUnit.SECONDS);
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while writing to the DLQ", e);
            } catch (Exception e) {
                metrics.counter("seckill_writer_dlq_send_failures").increment();
                String why = e instanceof ExecutionException && e.getCause() != null
                        ? e.getCause().toString()
                        : e.toString();
                // the batch's offsets are not committed: the record is redelivered to whoever consumes next
                if (attempt >= attempts)
                    throw new IllegalStateException(
                            "cannot write to the DLQ after " + attempt + " attempts: " + why, e);
                long backoffMs = backoff.nextMillis();
                warn(
                        source,
                        "DLQ send failed (attempt {} of {}), retrying in {} ms: {}",
                        attempt,
                        attempts,
                        backoffMs,
                        why);
                pause(backoffMs);
            }
        }
        deadLetters.increment();
        warn(
                source,
                "record {}-{}@{} sent to the DLQ: {}",
                source.topic(),
                source.partition(),
                source.offset(),
                dead.reason());
    }

    /**
     * A warning under the record's traceId and the span its {@code traceparent} names (the stream's decision); a rare
     * path (a record that can never be written), so no cost to spare.
     */
    private static void warn(ConsumerRecord<String, byte[]> source, String format, Object... args) {
        try (TraceMdc ignored = TraceMdc.put(TraceHeaders.get(source.headers()), Tracing.spanOf(source.headers()))) {
            LOG.warn(format, args);
        }
    }

    private static void pause(long backoffMs) {
        try {
            Thread.sleep(backoffMs); // backoff between DLQ attempts, on the consumer thread (the batch waits anyway)
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing to the DLQ", ie);
        }
    }
}
