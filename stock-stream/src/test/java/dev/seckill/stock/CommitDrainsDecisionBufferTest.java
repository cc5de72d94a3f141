package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.support.CommittedRecords;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The guard on the one place stock-stream leans on Kafka Streams internals ({@link BeforeCommitHook}: a
 * {@code CachedStateStore} whose cache flush, right before every commit, drains the decide processor's buffer).
 * With a batch that never fills and a linger of an hour, only that hook can decide the buffered commands; and when
 * the group's committed offsets cover every command, every outcome must be committed with them. If an upgrade of
 * Kafka Streams stopped calling the hook, this fails instead of exactly-once silently breaking.
 */
class CommitDrainsDecisionBufferTest {

    @Test
    void everyCommitDecidesWhatIsBuffered_offsetsNeverRunAheadOfTheirOutcomes() throws Exception {
        Topics topics = new Topics("drain-" + UUID.randomUUID().toString().substring(0, 6) + ".");
        TopicProvisioner.ensure(KafkaFixture.settings(), topics, 1);
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(10);
        try (TestRedis redis = new TestRedis();
                var producer = new KafkaProducer<String, byte[]>(
                        Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            Settings settings = Settings.with(Map.of(
                    Settings.KAFKA_BOOTSTRAP,
                    KafkaFixture.bootstrap(),
                    Settings.TOPIC_PREFIX,
                    topics.prefix(),
                    Settings.REDIS_PREFIX,
                    redis.keys.prefix(),
                    "stream.threads",
                    "1",
                    "stream.batch.size",
                    "100000",
                    "stream.batch.linger.ms",
                    "3600000"));
            List<Command> commands = List.of(
                    new OpenSale(9301, 4, start, start.plusSeconds(3600), 1, "open-9301", false),
                    new Purchase("d1", 9301, 1, 1, start.plusSeconds(1)),
                    new Purchase("d2", 9301, 2, 1, start.plusSeconds(1)),
                    new Purchase("d3", 9301, 3, 1, start.plusSeconds(1)),
                    new Purchase("d4", 9301, 4, 1, start.plusSeconds(1)),
                    new Purchase("d5", 9301, 4, 1, start.plusSeconds(1)));
            for (Command c : commands)
                producer.send(new ProducerRecord<>(topics.commands(), c.key(), CommandCodec.encode(c)))
                        .get();

            TopicPartition commandsPartition = new TopicPartition(topics.commands(), 0);
            try (StockStreamApp app = new StockStreamApp(settings, new SimpleMeterRegistry()).start();
                    Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
                await().atMost(Duration.ofSeconds(90)).until(() -> {
                    OffsetAndMetadata committed = admin.listConsumerGroupOffsets(GroupIds.stockStream(settings))
                            .partitionsToOffsetAndMetadata()
                            .get()
                            .get(commandsPartition);
                    return committed != null && committed.offset() >= commands.size();
                });
                Map<String, String> outcomes =
                        CommittedRecords.read(KafkaFixture.bootstrap(), topics.outcomes()).stream()
                                .collect(Collectors.toMap(
                                        r -> new String(r.value()).replaceAll(".*\"requestId\":\"([^\"]+)\".*", "$1"),
                                        r -> r.topic()));
                assertThat(outcomes)
                        .as(
                                "committed with the offsets that consumed them, though no batch filled and no linger ran out")
                        .containsOnlyKeys("d1", "d2", "d3", "d4", "d5");
                assertThat(outcomes.get("d5")).isEqualTo(topics.duplicate());
            } finally {
                try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
                    admin.deleteTopics(topics.all()).all().get();
                }
            }
        }
    }
}
