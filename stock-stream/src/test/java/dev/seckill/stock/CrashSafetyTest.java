package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.TestTopics;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.support.CommittedRecords;
import dev.seckill.stock.support.StreamProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * stock-stream as a real process, SIGKILLed three times at random points of a sale with far more requests than stock
 * (and upstream retries), then restarted. Afterwards: no oversell, one live purchase per buyer, Redis = ledger fold,
 * and every requestId has exactly one committed outcome.
 */
class CrashSafetyTest {
    static final long[] GOODS = {5001, 5002};
    static final long STOCK = 150;
    String prefix;
    Topics topics;
    TestRedis redis;
    KafkaProducer<String, byte[]> producer;
    Path stateDir;
    Path log;
    final Set<String> requestIds = new HashSet<>();
    final Random random = new Random(20261129);

    @BeforeEach
    void setUp() throws Exception {
        prefix = "crash-" + UUID.randomUUID().toString().substring(0, 8);
        topics = new Topics(prefix + ".");
        TopicProvisioner.ensure(KafkaFixture.settings(), topics, 4);
        redis = new TestRedis();
        producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all", "enable.idempotence", true),
                new StringSerializer(),
                new ByteArraySerializer());
        stateDir = Files.createTempDirectory("crash-state-");
        log = Files.createTempFile("crash-stream-", ".log");
    }

    @AfterEach
    void tearDown() {
        producer.close();
        redis.close();
        TestTopics.deleteWithPrefix(KafkaFixture.bootstrap(), topics.prefix());
    }

    Map<String, String> env() {
        return Map.of(
                "SECKILL_KAFKA_BOOTSTRAP",
                KafkaFixture.bootstrap(),
                "SECKILL_TOPIC_PREFIX",
                topics.prefix(),
                "SECKILL_REDIS_PREFIX",
                redis.keys.prefix(),
                "SECKILL_STREAM_METRICS_PORT",
                "0",
                "SECKILL_STREAM_STATE_DIR",
                stateDir.toString(),
                "SECKILL_STREAM_SESSION_TIMEOUT_MS",
                "6000",
                "SECKILL_STREAM_THREADS",
                "2");
    }

    void send(Command c) throws Exception {
        producer.send(new ProducerRecord<>(topics.commands(), c.key(), CommandCodec.encode(c)))
                .get();
    }

    /** A wave of purchases from a population of 400 buyers, with some upstream retries of earlier requestIds. */
    void sendWave(int size) throws Exception {
        List<String> earlier = new ArrayList<>(requestIds);
        for (int i = 0; i < size; i++) {
            long goods = GOODS[random.nextInt(GOODS.length)];
            long user = 1 + random.nextInt(400);
            String rid = prefix + "-" + requestIds.size();
            if (!earlier.isEmpty() && random.nextInt(10) == 0) {
                rid = earlier.get(random.nextInt(earlier.size())); // a retry: same requestId, same goods and buyer
                Purchase again = retries.get(rid);
                producer.send(new ProducerRecord<>(topics.commands(), again.key(), CommandCodec.encode(again)));
                continue;
            }
            Purchase p = new Purchase(rid, goods, user, 1, Instant.now());
            retries.put(rid, p);
            requestIds.add(rid);
            producer.send(new ProducerRecord<>(topics.commands(), p.key(), CommandCodec.encode(p)));
        }
        producer.flush();
    }

    final Map<String, Purchase> retries = new HashMap<>();

    List<Outcome> outcomes() {
        return CommittedRecords.read(KafkaFixture.bootstrap(), topics.outcomes()).stream()
                .map(r -> Json.read(r.value(), Outcome.class))
                .toList();
    }

    @Test
    void sigkillThreeTimesDuringASale_thenEveryInvariantHolds() throws Exception {
        Instant now = Instant.now();
        for (long g : GOODS)
            send(new OpenSale(
                    g, STOCK, now.minusSeconds(5), now.plus(Duration.ofHours(1)), 1, prefix + "-open-" + g, false));
        sendWave(700);

        for (int kill = 1; kill <= 3; kill++) {
            StreamProcess stream = StreamProcess.start(env(), log);
            int before = outcomes().size();
            int threshold = before + 20 + random.nextInt(200);
            await().atMost(Duration.ofSeconds(120)).until(() -> outcomes().size() >= threshold);
            assertThat(stream.isAlive())
                    .as("killed while deciding, not after dying on its own")
                    .isTrue();
            stream.kill();
            assertThat(stream.isAlive()).isFalse();
            sendWave(400); // the sale goes on while the decider is down
        }

        try (StreamProcess last = StreamProcess.start(env(), log)) {
            await().atMost(Duration.ofSeconds(180))
                    .until(() -> outcomes().stream()
                            .map(Outcome::requestId)
                            .collect(Collectors.toSet())
                            .containsAll(requestIds));
            last.stop();
        }

        List<Outcome> outcomes = outcomes();
        // every requestId has exactly one committed outcome, and every command sent has one
        Map<String, Long> perRequest =
                outcomes.stream().collect(Collectors.groupingBy(Outcome::requestId, Collectors.counting()));
        assertThat(perRequest.values()).allMatch(n -> n == 1);
        assertThat(perRequest.keySet()).isEqualTo(requestIds);

        List<LedgerEntry> ledger = CommittedRecords.read(KafkaFixture.bootstrap(), List.of(topics.ledger())).stream()
                .map(r -> Json.read(r.value(), LedgerEntry.class))
                .toList();
        assertThat(ledger.stream().map(LedgerEntry::opId)).doesNotHaveDuplicates();
        RedisKeys keys = redis.keys;
        for (long g : GOODS) {
            List<Outcome> sold = outcomes.stream()
                    .filter(o -> o.goodsId() == g && o.outcome() == OutcomeKind.SUCCESS)
                    .toList();
            long opened = ledger.stream()
                    .filter(e -> e.goodsId() == g && e.type() == LedgerType.OPENED)
                    .mapToLong(LedgerEntry::quantity)
                    .sum();
            long deducted = ledger.stream()
                    .filter(e -> e.goodsId() == g && e.type() == LedgerType.DEDUCTED)
                    .mapToLong(LedgerEntry::quantity)
                    .sum();
            assertThat(opened).isEqualTo(STOCK);
            assertThat(deducted)
                    .as("invariant 1: no oversell")
                    .isLessThanOrEqualTo(opened)
                    .isEqualTo(sold.size());
            assertThat(deducted)
                    .as("up to 400 buyers for %d units: the goods sold out, it did not just refuse", STOCK)
                    .isEqualTo(STOCK);
            assertThat(outcomes)
                    .as("and the buyers after the last unit were told SOLD_OUT")
                    .anyMatch(o -> o.goodsId() == g && o.outcome() == OutcomeKind.SOLD_OUT);
            assertThat(sold)
                    .extracting(Outcome::userId)
                    .as("invariant 2: one live purchase per buyer")
                    .doesNotHaveDuplicates();
            assertThat(Long.parseLong(redis.redis.get(keys.stock(g))))
                    .as("invariant 4: Redis = ledger fold")
                    .isEqualTo(opened - deducted);
            assertThat(redis.redis.hlen(keys.buyers(g))).isEqualTo(sold.size());
        }
    }
}
