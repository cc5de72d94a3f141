package dev.seckill.stock.support;

import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.kit.config.Settings;
import dev.seckill.stock.StockStreamApp;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** A reproducible command log (sales, purchases across the window, releases, a close), and running the decider on it. */
public final class CommandLog {
    private CommandLog() {}

    /** Writes the log of a sale that started a minute ago; returns the number of purchases in it. */
    public static int write(
            String bootstrap, Topics topics, long firstGoods, int goodsCount, int purchases, long seed) {
        return write(
                bootstrap,
                topics,
                firstGoods,
                goodsCount,
                purchases,
                seed,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60));
    }

    /**
     * Writes the log to {@code topics.commands()} as it was recorded for a sale starting at {@code start}: every record
     * carries the time it was recorded (the opens half a minute before the start, a purchase at its acceptedAt, never
     * later than now), so a log of a sale that started days ago is what a recording of it replayed later looks like.
     * The same seed gives the same commands whatever the start, shifted with it. Returns the number of purchases.
     */
    public static int write(
            String bootstrap, Topics topics, long firstGoods, int goodsCount, int purchases, long seed, Instant start) {
        Random random = new Random(seed);
        Instant opened = start.minusSeconds(30);
        Function<Command, Long> recordedAt = c -> {
            Instant at = c instanceof Purchase p && p.acceptedAt().isAfter(opened) ? p.acceptedAt() : opened;
            return Math.min(at.toEpochMilli(), System.currentTimeMillis());
        };
        try (var producer = new KafkaProducer<String, byte[]>(
                Map.of("bootstrap.servers", bootstrap, "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer())) {
            List<Future<?>> acks = new ArrayList<>();
            Consumer<Command> send = c -> acks.add(producer.send(new ProducerRecord<>(
                    topics.commands(), null, recordedAt.apply(c), c.key(), CommandCodec.encode(c))));
            for (long g = firstGoods; g < firstGoods + goodsCount; g++) {
                send.accept(new OpenSale(g, 20, start, start.plusSeconds(600), 2, "open-" + g, false));
            }
            List<Purchase> sent = new ArrayList<>();
            for (int i = 0; i < purchases; i++) {
                long g = firstGoods + random.nextInt(goodsCount);
                long user = 1 + random.nextInt(80);
                // acceptedAt spans before, inside and after the window: the window is judged by acceptedAt only
                Instant at = start.plusSeconds(random.nextInt(700) - 50);
                Purchase p = new Purchase("p" + i, g, user, 1 + random.nextInt(3), at);
                sent.add(p);
                send.accept(p);
                // an upstream retry of an earlier purchase: decided already, so it must emit nothing
                if (i % 40 == 39) send.accept(sent.get(random.nextInt(sent.size())));
                if (i % 25 == 0) send.accept(new Release(g, user, 1, null, null, "cancelled", "rel-" + i));
                if (i == purchases - 50) send.accept(new CloseSale(firstGoods, "close-" + firstGoods));
            }
            producer.flush();
            for (Future<?> ack : acks) {
                try {
                    ack.get();
                } catch (Exception e) {
                    throw new IllegalStateException("the command log was not written whole: " + e.getMessage(), e);
                }
            }
        }
        return purchases;
    }

    /**
     * Copies every committed command, partition by partition and in order, with its recorded timestamp and headers,
     * to another prefix's commands topic (as a replay drill copies a recording).
     */
    public static void copy(String bootstrap, Topics from, Topics to) {
        try (var producer = new KafkaProducer<String, byte[]>(
                Map.of("bootstrap.servers", bootstrap, "acks", "all", "max.in.flight.requests.per.connection", 1),
                new StringSerializer(),
                new ByteArraySerializer())) {
            for (ConsumerRecord<String, byte[]> r : CommittedRecords.read(bootstrap, List.of(from.commands()))) {
                producer.send(new ProducerRecord<>(
                        to.commands(), r.partition(), r.timestamp(), r.key(), r.value(), r.headers()));
            }
        }
    }

    /** Runs stock-stream in this JVM until {@code expected} outcomes are committed; returns them by requestId. */
    public static Map<String, Outcome> decide(Settings settings, int expected) {
        return decide(settings, expected, new SimpleMeterRegistry());
    }

    /** As {@link #decide(Settings, int)}, with the app's metrics in {@code metrics}. */
    public static Map<String, Outcome> decide(Settings settings, int expected, MeterRegistry metrics) {
        Topics topics = new Topics(settings.topicPrefix());
        try (StockStreamApp app = new StockStreamApp(settings, metrics).start()) {
            await().atMost(Duration.ofSeconds(120))
                    .until(() -> CommittedRecords.read(settings.kafkaBootstrap(), topics.outcomes())
                                    .size()
                            >= expected);
        }
        return CommittedRecords.read(settings.kafkaBootstrap(), topics.outcomes()).stream()
                .map(r -> Json.read(r.value(), Outcome.class))
                .collect(Collectors.toMap(Outcome::requestId, Function.identity()));
    }
}
