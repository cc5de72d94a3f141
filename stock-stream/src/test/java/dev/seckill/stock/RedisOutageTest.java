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
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.RedisServer;
import dev.seckill.stack.ServerProcess;
import dev.seckill.stock.support.CommittedRecords;
import dev.seckill.stock.support.TestTopics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Redis goes away mid-sale (its own redis-server with an append-only file, on a spare port): the stream retries, then
 * stops deciding rather than emit anything without a Lua result, and resumes by itself when Redis is back. Every
 * requestId ends with exactly one outcome and the stock is exact.
 */
class RedisOutageTest {
    private final TestTopics topicsMade = new TestTopics();

    @AfterEach
    void deleteTheTopicsMade() throws Exception {
        topicsMade.deleteAll();
    }

    @Test
    void theStreamWaitsForRedisAndResumes() throws Exception {
        int port = ServerProcess.freePort();
        var dir = Files.createTempDirectory("redis-outage-");
        List<String> aof = List.of("--appendonly", "yes", "--appendfsync", "always");
        RedisServer redis = new RedisServer(port, dir, aof).start();
        String prefix = topicsMade.note("outage-" + UUID.randomUUID().toString().substring(0, 6) + ".");
        Topics topics = new Topics(prefix);
        TopicProvisioner.ensure(KafkaFixture.settings(), topics, 2);
        Settings s = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                prefix,
                Settings.REDIS_URL,
                redis.url(),
                Settings.REDIS_PREFIX,
                "o:",
                "stream.redis.attempts",
                "3",
                "stream.threads",
                "1"));
        Set<String> ids = new HashSet<>();
        Random random = new Random(5);
        try (StockStreamApp app = new StockStreamApp(s, new SimpleMeterRegistry()).start();
                var producer = new KafkaProducer<String, byte[]>(
                        Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            Instant now = Instant.now();
            OpenSale open =
                    new OpenSale(9100, 100, now.minusSeconds(5), now.plusSeconds(3600), 1, prefix + "open", false);
            producer.send(new ProducerRecord<>(topics.commands(), open.key(), CommandCodec.encode(open)))
                    .get();
            // fewer purchases than units before the outage: the goods is not sold out, so every purchase needs Lua
            // (a sold-out goods is answered in memory and would go on being decided without Redis)
            for (int i = 0; i < 60; i++) ids.add(send(producer, topics, "a" + i, 1 + random.nextInt(300)));
            await().atMost(Duration.ofSeconds(60)).until(() -> outcomes(topics).size() >= 30);

            redis.stop();
            for (int i = 0; i < 240; i++) ids.add(send(producer, topics, "b" + i, 1 + random.nextInt(300)));
            // the stream cannot decide anything new while Redis is gone: the outcomes stop growing short of the total.
            // Its stream thread fails and is replaced (the handler's REPLACE_THREAD), and Kafka Streams lets the failed
            // thread end with its exception, which is the design here, not a test failure: not caught by the awaits
            AtomicInteger seen = new AtomicInteger(-1);
            await().dontCatchUncaughtExceptions()
                    .pollInterval(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(40))
                    .until(() -> outcomes(topics).size()
                            == seen.getAndSet(outcomes(topics).size()));
            assertThat(seen.get()).isLessThan(ids.size());

            redis = new RedisServer(port, dir, aof).start();
            await().dontCatchUncaughtExceptions()
                    .atMost(Duration.ofSeconds(120))
                    .until(() -> outcomes(topics).stream()
                            .map(Outcome::requestId)
                            .collect(Collectors.toSet())
                            .containsAll(ids));
        } finally {
            redis.stop();
        }
        List<Outcome> outcomes = outcomes(topics);
        assertThat(outcomes)
                .extracting(Outcome::requestId)
                .doesNotHaveDuplicates()
                .hasSize(ids.size());
        List<Outcome> sold = outcomes.stream()
                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                .toList();
        assertThat(sold).hasSize(100);
        assertThat(sold).extracting(Outcome::userId).doesNotHaveDuplicates();
        try (RedisServer again = new RedisServer(port, dir, aof).start();
                RedisClient c = RedisClient.create("127.0.0.1", port)) {
            assertThat(c.get(new RedisKeys("o:").stock(9100))).isEqualTo("0");
        }
    }

    static String send(KafkaProducer<String, byte[]> producer, Topics topics, String id, long user) {
        Purchase p = new Purchase(id, 9100, user, 1, Instant.now());
        producer.send(new ProducerRecord<>(topics.commands(), p.key(), CommandCodec.encode(p)));
        return id;
    }

    static List<Outcome> outcomes(Topics topics) {
        return CommittedRecords.read(KafkaFixture.bootstrap(), topics.outcomes()).stream()
                .map(r -> Json.read(r.value(), Outcome.class))
                .toList();
    }
}
