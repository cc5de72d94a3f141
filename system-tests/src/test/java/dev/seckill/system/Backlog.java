package dev.seckill.system;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Records written straight to a topic under one key, so all on one partition, as fast as a batching producer goes: what
 * a consumer that was not reading finds when it reads again (its lag is then the backlog, partition by partition).
 */
final class Backlog {
    private Backlog() {}

    /** {@code count} records {@code value(0..count-1)} under {@code key}; returns once Kafka acknowledged every one. */
    static void write(Settings settings, String topic, String key, int count, IntFunction<byte[]> value) {
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(
                settings,
                Map.of(
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        512 * 1024,
                        ProducerConfig.COMPRESSION_TYPE_CONFIG,
                        "lz4"))) {
            for (int i = 0; i < count; i++)
                producer.send(new ProducerRecord<>(topic, key, value.apply(i)), (meta, e) -> {
                    if (e != null) failed.compareAndSet(null, e);
                });
            producer.flush();
        }
        if (failed.get() != null)
            throw new IllegalStateException("the backlog of " + topic + " was not written", failed.get());
    }

    /** The {@code i}-th of a backlog of decided purchases of one goods, a buyer each, as stock-stream writes them. */
    static byte[] outcome(OutcomeKind kind, String reason, long goods, long i) {
        Instant now = Instant.now();
        return OutcomeJson.encode(
                Outcome.of("backlog-" + goods + "-" + i, goods, 1_000_000L + i, 1, kind, reason, 0, now, now, 0, i));
    }

    /** The {@code i}-th of a backlog of purchases of one goods (DEDUCTED ledger entries), a buyer each, as stock-stream writes them. */
    static byte[] deducted(long goods, long i) {
        Instant now = Instant.now();
        String requestId = "backlog-" + goods + "-" + i;
        return Json.write(LedgerEntry.of(
                        LedgerEntry.deductOpId(goods, requestId),
                        goods,
                        LedgerType.DEDUCTED,
                        1,
                        1_000_000L + i,
                        requestId,
                        null,
                        0,
                        now)
                .withPurchase(i, now, -1));
    }
}
