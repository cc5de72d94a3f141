package dev.seckill.stock.support;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.stock.StockStreamApp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import static org.awaitility.Awaitility.await;

/** A reproducible command log (sales, purchases across the window, releases, a close), and running the decider on it. */
public final class CommandLog {
    private CommandLog() {}

    /** Writes the log to {@code topics.commands()}; returns the number of purchases in it. */
    public static int write(String bootstrap, Topics topics, long firstGoods, int goodsCount, int purchases, long seed) {
        Instant start = Instant.parse("2026-11-29T10:00:00Z");
        Random random = new Random(seed);
        try (var producer = new KafkaProducer<String, byte[]>(Map.of("bootstrap.servers", bootstrap, "acks", "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            java.util.List<java.util.concurrent.Future<?>> acks = new java.util.ArrayList<>();
            java.util.function.Consumer<Command> send = c ->
                    acks.add(producer.send(new ProducerRecord<>(topics.commands(), c.key(), CommandCodec.encode(c))));
            for (long g = firstGoods; g < firstGoods + goodsCount; g++) {
                send.accept(new OpenSale(g, 20, start, start.plusSeconds(600), 2, "open-" + g, false));
            }
            java.util.List<Purchase> sent = new java.util.ArrayList<>();
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
            for (java.util.concurrent.Future<?> ack : acks) {
                try {
                    ack.get();
                } catch (Exception e) {
                    throw new IllegalStateException("the command log was not written whole: " + e.getMessage(), e);
                }
            }
        }
        return purchases;
    }

    /** Copies every committed command, partition by partition and in order, to another prefix's commands topic. */
    public static void copy(String bootstrap, Topics from, Topics to) {
        try (var producer = new KafkaProducer<String, byte[]>(Map.of("bootstrap.servers", bootstrap, "acks", "all",
                "max.in.flight.requests.per.connection", 1), new StringSerializer(), new ByteArraySerializer())) {
            for (ConsumerRecord<String, byte[]> r : CommittedRecords.read(bootstrap, java.util.List.of(from.commands()))) {
                producer.send(new ProducerRecord<>(to.commands(), r.partition(), r.key(), r.value()));
            }
        }
    }

    /** Runs stock-stream in this JVM until {@code expected} outcomes are committed; returns them by requestId. */
    public static Map<String, Outcome> decide(Settings settings, int expected) {
        return decide(settings, expected, new SimpleMeterRegistry());
    }

    /** As {@link #decide(Settings, int)}, with the app's metrics in {@code metrics}. */
    public static Map<String, Outcome> decide(Settings settings, int expected, io.micrometer.core.instrument.MeterRegistry metrics) {
        Topics topics = new Topics(settings.topicPrefix());
        try (StockStreamApp app = new StockStreamApp(settings, metrics).start()) {
            await().atMost(Duration.ofSeconds(120)).until(() ->
                    CommittedRecords.read(settings.kafkaBootstrap(), topics.outcomes()).size() >= expected);
        }
        return CommittedRecords.read(settings.kafkaBootstrap(), topics.outcomes()).stream()
                .map(r -> Json.read(r.value(), Outcome.class))
                .collect(Collectors.toMap(Outcome::requestId, Function.identity()));
    }
}
