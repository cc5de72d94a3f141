package dev.seckill.gateway.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends the Kafka record an HTTP request stands for — a purchase's command to {@code <prefix>commands}, a payment's
 * event to {@code <prefix>payments} — and comes back to the request's event loop with the broker's answer: every reply
 * that depends on a Kafka acknowledgment (a purchase's 202, a payment's 202, their 503s) waits here. A send Kafka refuses at once
 * (buffer full, metadata unavailable) fails the same way as one it never acknowledges.
 */
public final class RequestRecordSender {
    private final Vertx vertx;
    private final KafkaProducer<String, byte[]> producer;
    private final MeterRegistry metrics;

    public RequestRecordSender(Vertx vertx, KafkaProducer<String, byte[]> producer, MeterRegistry metrics) {
        this.vertx = vertx;
        this.producer = producer;
        this.metrics = metrics;
    }

    /**
     * {@code acked} or {@code failed} runs on the calling context once the broker answered (acks=all) or gave up;
     * {@code acked} is given the acknowledgment: where the record was appended (partition, offset) and its timestamp
     * (the broker's append time on a LogAppendTime topic).
     */
    public void send(
            ProducerRecord<String, byte[]> record, Consumer<RecordMetadata> acked, Consumer<Throwable> failed) {
        Context context = vertx.getOrCreateContext();
        try {
            producer.send(
                    record,
                    (meta, error) -> context.runOnContext(v -> {
                        if (error == null) {
                            acked.accept(meta);
                        } else {
                            counted(error);
                            failed.accept(error);
                        }
                    }));
        } catch (RuntimeException e) {
            counted(e);
            failed.accept(e);
        }
    }

    private void counted(Throwable e) {
        metrics.counter("seckill_gateway_producer_errors", "error", e.getClass().getSimpleName())
                .increment();
    }
}
