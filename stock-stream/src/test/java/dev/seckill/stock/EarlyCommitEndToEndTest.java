package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.support.CommittedRecords;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A caught-up stream commits at once (stream.caught.up.commit.ms): with a commit interval of a minute, a fresh purchase's
 * outcome is committed (visible to read_committed readers, i.e. to a waiting buyer) within seconds; with the early
 * commit off, the same purchase stays invisible for those seconds.
 */
class EarlyCommitEndToEndTest {

    @Test
    void aFreshPurchaseIsCommittedWithoutWaitingForTheInterval() throws Exception {
        Seen seen = firstOutcomeVisible("20", Duration.ofSeconds(20));
        assertThat(seen.committed())
                .as("early commit on: committed well inside the 60 s interval")
                .isTrue();
        assertThat(seen.decided()).isTrue();
    }

    @Test
    void withoutTheEarlyCommitItWaitsForTheInterval() throws Exception {
        Seen seen = firstOutcomeVisible("0", Duration.ofSeconds(8));
        assertThat(seen.decided())
                .as("the purchase was decided: its outcome is written, inside the open transaction")
                .isTrue();
        assertThat(seen.committed())
                .as("early commit off: nothing committed before the 60 s interval")
                .isFalse();
    }

    /** Whether the purchase's outcome was committed in time, and whether it was written at all (committed or not). */
    record Seen(boolean committed, boolean decided) {}

    /** Starts the app (commit interval 60 s), sends an open and a purchase, and says what was seen of its outcome. */
    private static Seen firstOutcomeVisible(String caughtUpMs, Duration within) throws Exception {
        Topics topics = new Topics("early-" + UUID.randomUUID().toString().substring(0, 6) + ".");
        TopicProvisioner.ensure(KafkaFixture.settings(), topics, 1);
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
                    "stream.commit.interval.ms",
                    "60000",
                    "stream.transaction.timeout.ms",
                    "120000",
                    "stream.caught.up.commit.ms",
                    caughtUpMs));
            try (StockStreamApp app = new StockStreamApp(settings, new SimpleMeterRegistry()).start()) {
                app.awaitRunning(Duration.ofSeconds(60));
                for (Command c : new Command[] {
                    new OpenSale(9401, 4, start, start.plusSeconds(3600), 1, "open-9401", false),
                    new Purchase("e1", 9401, 1, 1, Instant.now())
                }) {
                    producer.send(new ProducerRecord<>(topics.commands(), c.key(), CommandCodec.encode(c)))
                            .get();
                }
                long sent = System.nanoTime();
                boolean committed;
                try {
                    await().atMost(within)
                            .pollInterval(Duration.ofMillis(200))
                            .until(() -> CommittedRecords.read(KafkaFixture.bootstrap(), topics.outcomes()).stream()
                                    .anyMatch(r -> new String(r.value()).contains("\"requestId\":\"e1\"")));
                    committed = System.nanoTime() - sent < within.toNanos();
                } catch (ConditionTimeoutException e) {
                    committed = false;
                }
                boolean decided = CommittedRecords.readUncommitted(KafkaFixture.bootstrap(), topics.outcomes()).stream()
                        .anyMatch(r -> new String(r.value()).contains("\"requestId\":\"e1\""));
                return new Seen(committed, decided);
            } finally {
                try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
                    admin.deleteTopics(topics.all()).all().get();
                }
            }
        }
    }
}
