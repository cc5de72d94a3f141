package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stock.bucket.HopOut;
import dev.seckill.stock.bucket.HopSeal;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.support.CommittedRecords;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A bucketed sale through the real stream app on a real broker: a goods of 3 buckets on a 4-partition commands topic,
 * its buckets' hops sealed and produced to their partitions in the decisions' transactions, a forged transfer refused.
 */
class BucketedSaleEndToEndTest {
    private static final long GOODS = 9_731;

    @Test
    void aGoodsOfThreeBucketsSellsEveryUnitOnceAndAForgedTransferMakesNone() throws Exception {
        Topics topics = new Topics("buckets-" + UUID.randomUUID().toString().substring(0, 6) + ".");
        TopicProvisioner.ensure(KafkaFixture.settings(), topics, 4);
        Instant start = Instant.now().minusSeconds(10);
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
                    "stream.hop.secret",
                    "b3f1c9e07a4d2e6f8a1b5c3d7e9f0a2b4c6d8e0f1a3b5c7d",
                    "stream.bucket.reborrow.ms",
                    "60000"));
            try (StockStreamApp app = new StockStreamApp(settings, new SimpleMeterRegistry()).start()) {
                app.awaitRunning(Duration.ofSeconds(60));
                // Given a goods of 30 units opened in 3 buckets
                send(
                        producer,
                        topics,
                        new OpenSale(
                                GOODS, 30, start, start.plusSeconds(3600), 1, "open-e2e", false, Fairness.FCFS, 0, 3));
                // When a forged transfer of 1,000 units reaches bucket 1's partition, and 45 buyers come
                RecordHeaders forged = new RecordHeaders();
                forged.add(HopSeal.KIND, "transfer_in".getBytes(StandardCharsets.UTF_8));
                forged.add(HopSeal.BUCKET, "1".getBytes(StandardCharsets.UTF_8));
                forged.add(HopSeal.MAC, "not-the-stream-s".getBytes(StandardCharsets.UTF_8));
                int bucket1 = (HopOut.home(Long.toString(GOODS), 4) + 1) % 4;
                producer.send(new ProducerRecord<>(
                                topics.commands(),
                                bucket1,
                                Long.toString(GOODS),
                                ("{\"goodsId\":" + GOODS + ",\"from\":2,\"units\":1000,\"borrowOpId\":\"x\"}")
                                        .getBytes(StandardCharsets.UTF_8),
                                forged))
                        .get();
                for (int u = 1; u <= 45; u++)
                    send(producer, topics, new Purchase("e2e-" + u, GOODS, u, 1, Instant.now()));
                // Then 30 are sold and 15 told SOLD_OUT, the ledger in v2 entries naming their buckets, the forgery in
                // the DLQ
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> outcomes(topics).size() >= 45);
                List<Outcome> outcomes = outcomes(topics);
                assertThat(outcomes).hasSize(45);
                assertThat(outcomes.stream().filter(o -> o.outcome() == OutcomeKind.SUCCESS))
                        .hasSize(30);
                assertThat(outcomes.stream().filter(o -> o.outcome() == OutcomeKind.SOLD_OUT))
                        .hasSize(15);
                List<LedgerEntry> ledger =
                        CommittedRecords.read(KafkaFixture.bootstrap(), List.of(topics.ledger())).stream()
                                .map(r -> Json.read(r.value(), LedgerEntry.class))
                                .toList();
                assertThat(ledger).allMatch(e -> e.v() == 2 && e.bucket() != null);
                assertThat(ledger.stream().filter(e -> e.type() == LedgerType.OPENED))
                        .hasSize(3);
                assertThat(ledger.stream().mapToLong(LedgerEntry::stockDelta).sum())
                        .isZero();
                List<ConsumerRecord<String, byte[]>> dlq =
                        CommittedRecords.read(KafkaFixture.bootstrap(), List.of(topics.dlq()));
                assertThat(dlq).hasSize(1);
                assertThat(new String(dlq.get(0)
                                .headers()
                                .lastHeader(dev.seckill.contracts.dlq.DeadLetters.ERROR)
                                .value()))
                        .contains("seal does not match");
            } finally {
                try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
                    admin.deleteTopics(topics.all()).all().get();
                }
            }
        }
    }

    private static void send(KafkaProducer<String, byte[]> producer, Topics topics, Command c) throws Exception {
        producer.send(new ProducerRecord<>(topics.commands(), c.key(), CommandCodec.encode(c)))
                .get();
    }

    private static List<Outcome> outcomes(Topics topics) {
        return CommittedRecords.read(KafkaFixture.bootstrap(), topics.outcomes()).stream()
                .map(r -> Json.read(r.value(), Outcome.class))
                .toList();
    }
}
