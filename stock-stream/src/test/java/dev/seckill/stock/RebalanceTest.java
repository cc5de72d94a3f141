package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.support.CommittedRecords;
import dev.seckill.stock.support.StreamProcess;
import dev.seckill.stock.support.TestTopics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two stock-stream instances share the partitions; one is stopped mid-sale: no oversell, no lost or double outcome. */
class RebalanceTest {
    private final TestTopics topicsMade = new TestTopics();

    @AfterEach
    void deleteTheTopicsMade() throws Exception {
        topicsMade.deleteAll();
    }

    @Test
    void twoInstancesOneStoppedMidSale() throws Exception {
        String prefix = topicsMade.note("rebal-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        Topics topics = new Topics(prefix);
        TopicProvisioner.ensure(KafkaFixture.settings(), topics, 6);
        long[] goods = {6001, 6002, 6003, 6004, 6005, 6006};
        Set<String> ids = new HashSet<>();
        Random random = new Random(3);
        try (TestRedis redis = new TestRedis();
                var producer = new KafkaProducer<String, byte[]>(
                        Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            Map<String, String> env = Map.of(
                    "SECKILL_KAFKA_BOOTSTRAP",
                    KafkaFixture.bootstrap(),
                    "SECKILL_TOPIC_PREFIX",
                    prefix,
                    "SECKILL_REDIS_PREFIX",
                    redis.keys.prefix(),
                    "SECKILL_STREAM_METRICS_PORT",
                    "0",
                    "SECKILL_STREAM_SESSION_TIMEOUT_MS",
                    "6000",
                    "SECKILL_STREAM_THREADS",
                    "1");
            Instant now = Instant.now();
            for (long g : goods) {
                OpenSale o =
                        new OpenSale(g, 50, now.minusSeconds(5), now.plusSeconds(3600), 1, prefix + "open-" + g, false);
                producer.send(new ProducerRecord<>(topics.commands(), o.key(), CommandCodec.encode(o)))
                        .get();
            }
            Path logA = Files.createTempFile("rebal-a-", ".log");
            Path logB = Files.createTempFile("rebal-b-", ".log");
            try (StreamProcess a = StreamProcess.start(env, logA);
                    StreamProcess b = StreamProcess.start(env, logB)) {
                await().atMost(Duration.ofSeconds(90)).until(() -> a.isRunning() && b.isRunning());
                send(producer, topics, goods, ids, random, 1500);
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> outcomes(topics).size() > 300);
                a.stop(); // mid-sale: its partitions move to b
                send(producer, topics, goods, ids, random, 1500);
                await().atMost(Duration.ofSeconds(120))
                        .until(() -> outcomes(topics).stream()
                                .map(Outcome::requestId)
                                .collect(Collectors.toSet())
                                .containsAll(ids));
                b.stop();
            }
            List<Outcome> outcomes = outcomes(topics);
            assertThat(outcomes).extracting(Outcome::requestId).doesNotHaveDuplicates();
            assertThat(outcomes).hasSize(ids.size());
            for (long g : goods) {
                List<Outcome> sold = outcomes.stream()
                        .filter(o -> o.goodsId() == g && o.outcome() == OutcomeKind.SUCCESS)
                        .toList();
                assertThat(sold).hasSize(50);
                assertThat(sold).extracting(Outcome::userId).doesNotHaveDuplicates();
                assertThat(redis.redis.get(redis.keys.stock(g))).isEqualTo("0");
            }
        }
    }

    static void send(
            KafkaProducer<String, byte[]> producer,
            Topics topics,
            long[] goods,
            Set<String> ids,
            Random random,
            int n) {
        for (int i = 0; i < n; i++) {
            Purchase p = new Purchase(
                    topics.prefix() + ids.size(),
                    goods[random.nextInt(goods.length)],
                    1 + random.nextInt(300),
                    1,
                    Instant.now());
            ids.add(p.requestId());
            producer.send(new ProducerRecord<>(topics.commands(), p.key(), CommandCodec.encode(p)));
        }
        producer.flush();
    }

    static List<Outcome> outcomes(Topics topics) {
        return CommittedRecords.read(KafkaFixture.bootstrap(), topics.outcomes()).stream()
                .map(r -> Json.read(r.value(), Outcome.class))
                .toList();
    }
}
