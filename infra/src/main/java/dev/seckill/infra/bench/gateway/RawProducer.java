package dev.seckill.infra.bench.gateway;

import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.gateway.http.GatewayProducer;
import dev.seckill.infra.harness.Latencies;
import dev.seckill.kit.config.Settings;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The physical reference of {@code bench gateway}: the gateway's own producer ({@link GatewayProducer}, the same
 * settings: acks=all, idempotence, linger, compression) sending the records the gateway sends — a purchase command
 * as the gateway encodes it, keyed by goods, with a trace header — from this JVM, as {@code inFlight} senders that each
 * wait for their acknowledgment before the next (the closed loop's shape without HTTP). What the gateway adds on top
 * of it is HTTP, auth, validation, rate limits and the reply; the ratio says how much of Kafka's rate is left.
 */
final class RawProducer {
    record Result(long acknowledged, long failed, long elapsedNanos, double p50, double p99) {
        double perSecond() {
            return acknowledged / (elapsedNanos / 1e9);
        }
    }

    private RawProducer() {}

    static Result run(Settings s, String topic, long goodsId, int records, int inFlight, long firstUser)
            throws InterruptedException {
        byte[][] values = new byte[records][];
        String[] keys = new String[records];
        for (int i = 0; i < records; i++) {
            Purchase p = new Purchase(UUID.randomUUID().toString(), goodsId, firstUser + i % 50_000, 1, Instant.now());
            values[i] = CommandCodec.encode(p);
            keys[i] = p.key();
        }
        long[] micros = new long[records];
        AtomicLong failed = new AtomicLong();
        Semaphore slots = new Semaphore(inFlight);
        try (KafkaProducer<String, byte[]> producer = GatewayProducer.create(s)) {
            // one record first: metadata and the idempotent producer id are fetched before the clock starts
            producer.send(new ProducerRecord<>(topic, keys[0], values[0])).get(30, TimeUnit.SECONDS);
            long start = System.nanoTime();
            for (int i = 0; i < records; i++) {
                slots.acquire();
                int n = i;
                long sent = System.nanoTime();
                ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, keys[i], values[i]);
                TraceHeaders.put(r.headers(), "raw-" + i);
                producer.send(r, (meta, error) -> {
                    micros[n] = (System.nanoTime() - sent) / 1_000;
                    if (error != null) failed.incrementAndGet();
                    slots.release();
                });
            }
            slots.acquire(inFlight);
            long elapsed = System.nanoTime() - start;
            return new Result(
                    records - failed.get(),
                    failed.get(),
                    elapsed,
                    Latencies.percentileMillis(micros, 50, 0),
                    Latencies.percentileMillis(micros, 99, 0));
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the raw producer could not reach the broker: " + e.getMessage(), e);
        }
    }
}
