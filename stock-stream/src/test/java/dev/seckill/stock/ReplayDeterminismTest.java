package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.TopicProvisioner;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.support.CommittedRecords;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Invariant 6: the same command log, replayed from a fresh state under another topic and key prefix, decides the same. */
class ReplayDeterminismTest {

    Map<String, Outcome> decide(String topicPrefix, TestRedis redis, int expected) {
        Settings s = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap(), Settings.TOPIC_PREFIX, topicPrefix,
                Settings.REDIS_PREFIX, redis.keys.prefix(), "stream.threads", "1"));
        Topics topics = new Topics(topicPrefix);
        try (StockStreamApp app = new StockStreamApp(s, new SimpleMeterRegistry()).start()) {
            await().atMost(Duration.ofSeconds(120)).until(() ->
                    CommittedRecords.read(KafkaFixture.bootstrap(), topics.outcomes()).size() >= expected);
        }
        return CommittedRecords.read(KafkaFixture.bootstrap(), topics.outcomes()).stream()
                .map(r -> Json.read(r.value(), Outcome.class))
                .collect(Collectors.toMap(Outcome::requestId, Function.identity()));
    }

    @Test void theSameCommandLogFromAFreshStateGivesTheSameOutcomes() throws Exception {
        String a = "replay-a-" + UUID.randomUUID().toString().substring(0, 6) + ".";
        String b = "replay-b-" + UUID.randomUUID().toString().substring(0, 6) + ".";
        Topics ta = new Topics(a);
        Topics tb = new Topics(b);
        TopicProvisioner.ensure(KafkaFixture.bootstrap(), ta, 3);
        TopicProvisioner.ensure(KafkaFixture.bootstrap(), tb, 3);
        Instant start = Instant.parse("2026-11-29T10:00:00Z");
        Random random = new Random(6);
        int purchases = 0;
        try (var producer = new KafkaProducer<String, byte[]>(Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            java.util.function.Consumer<Command> send = c -> producer.send(new ProducerRecord<>(ta.commands(), c.key(), CommandCodec.encode(c)));
            for (long g = 7001; g <= 7003; g++) send.accept(new OpenSale(g, 20, start, start.plusSeconds(600), 2, "open-" + g, false));
            for (int i = 0; i < 600; i++) {
                long g = 7001 + random.nextInt(3);
                long user = 1 + random.nextInt(80);
                // acceptedAt spans before, inside and after the window: the window is judged by acceptedAt only
                Instant at = start.plusSeconds(random.nextInt(700) - 50);
                send.accept(new Purchase("p" + i, g, user, 1 + random.nextInt(3), at));
                purchases++;
                if (i % 25 == 0) send.accept(new Release(g, user, 1, null, null, "cancelled", "rel-" + i));
                if (i == 550) send.accept(new CloseSale(7003, "close-7003"));
            }
            producer.flush();
        }
        Map<String, Outcome> first;
        try (TestRedis ra = new TestRedis()) {
            first = decide(a, ra, purchases);
        }
        // copy the log, partition by partition and in order, to another prefix
        List<ConsumerRecord<String, byte[]>> log = CommittedRecords.read(KafkaFixture.bootstrap(), List.of(ta.commands()));
        try (var producer = new KafkaProducer<String, byte[]>(Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all",
                "max.in.flight.requests.per.connection", 1), new StringSerializer(), new ByteArraySerializer())) {
            for (ConsumerRecord<String, byte[]> r : log) {
                producer.send(new ProducerRecord<>(tb.commands(), r.partition(), r.key(), r.value()));
            }
        }
        Map<String, Outcome> second;
        try (TestRedis rb = new TestRedis()) {
            second = decide(b, rb, purchases);
        }
        assertThat(first).hasSize(purchases);
        assertThat(second.keySet()).isEqualTo(first.keySet());
        for (String id : first.keySet()) {
            assertThat(second.get(id).withoutRunFields()).as(id).isEqualTo(first.get(id).withoutRunFields());
        }
        assertThat(first.values().stream().map(o -> o.outcome().name() + "/" + o.reason()).distinct().count())
                .as("the log exercises several outcomes and reasons").isGreaterThanOrEqualTo(5);
    }
}
