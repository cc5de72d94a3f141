package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;

/**
 * At the gateway: a requestId stands for one purchase (goods, buyer, quantity). Reused for another one it is
 * refused — by two gateway instances or two connections at once as well — and an outcome of another purchase under
 * the same requestId neither answers the buyer waiting for theirs nor overwrites its status. Two gateways of one
 * namespace over the machine's broker and Redis; outcomes are written to the outcome topics as stock-stream writes them.
 */
class RequestIdReuseTest {
    static final String SECRET = "reuse-test-secret-7Qm2xK9pLw4Zt8Rb3Nv6";
    static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    static final AtomicLong users = new AtomicLong(7000);
    static final AtomicLong goods = new AtomicLong(25_000);
    static Settings settings;
    static Topics topics;
    static RedisKeys keys;
    static PrometheusMeterRegistry metrics;
    static GatewayApp first;
    static GatewayApp second;
    static Jwt jwt;
    static KafkaProducer<String, byte[]> producer;

    @BeforeAll
    static void start() {
        String ns = "reuse-" + UUID.randomUUID().toString().substring(0, 8);
        settings = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                ns + ".",
                Settings.REDIS_PREFIX,
                ns + ":",
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "gateway.auth.enabled",
                "true",
                "gateway.auth.secret",
                SECRET,
                "gateway.limit.user.per.second",
                "100000",
                "gateway.limit.user.burst",
                "100000"));
        topics = new Topics(ns + ".");
        keys = new RedisKeys(ns + ":");
        metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        first = TestGateways.started(settings, metrics);
        second = TestGateways.started(settings);
        jwt = new Jwt(SECRET, Clock.systemUTC());
        producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    @AfterAll
    static void stop() throws Exception {
        first.close();
        second.close();
        producer.close();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
            admin.deleteTopics(topics.all()).all().get();
            admin.deleteConsumerGroups(List.of(settings.topicPrefix() + "gateway-status"))
                    .all()
                    .get();
        }
        try (RedisClient redis = redis()) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                var page = redis.scan(
                        cursor,
                        new ScanParams().match(settings.redisPrefix() + "*").count(1000));
                page.getResult().forEach(redis::del);
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
    }

    /**
     * The case observed on the old gateway: one buyer, two POSTs at once with one requestId, goods A and B — both were
     * accepted (the claim compared the buyer only). Now exactly one is accepted and the other is 422 naming goodsId,
     * whether the two meet on one gateway (two connections) or on two; only the accepted one reaches Kafka.
     */
    @Test
    void twoConcurrentPostsOfOneRequestIdForTwoGoods_oneIsAccepted_theOther422NamingGoodsId() throws Exception {
        for (int round = 0; round < 10; round++) {
            long buyer = users.incrementAndGet();
            String token = token(buyer);
            String id = "race-" + round + "-" + UUID.randomUUID().toString().substring(0, 8);
            long[] goodsOf = {goods.incrementAndGet(), goods.incrementAndGet()};
            GatewayApp[] through = round % 2 == 0 ? new GatewayApp[] {first, first} : new GatewayApp[] {first, second};
            AtomicReferenceArray<HttpResponse<String>> answers = new AtomicReferenceArray<>(2);
            Racing.run(2, i -> {
                try {
                    answers.set(i, buy(through[i], token, goodsOf[i], 1, id, 0).get());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            List<Integer> statuses =
                    List.of(answers.get(0).statusCode(), answers.get(1).statusCode());
            assertThat(statuses).as("round %d: %s", round, statuses).containsExactlyInAnyOrder(202, 422);
            int accepted = statuses.indexOf(202);
            JsonObject refused = new JsonObject(answers.get(1 - accepted).body());
            assertThat(refused.getString("field")).isEqualTo("goodsId");
            assertThat(refused.getString("requestId")).isEqualTo(id);
            assertThat(purchasesSent(id))
                    .as("round %d: only the accepted purchase is in the log", round)
                    .extracting(Purchase::goodsId)
                    .containsOnly(goodsOf[accepted])
                    .isNotEmpty();
        }
    }

    /**
     * One buyer reuses an accepted requestId for another quantity (the old gateway: 202, a retry), through the
     * gateway that accepted it (its memory) and through another (the claim in Redis): 422 naming quantity; another goods:
     * 422 naming goodsId; another buyer: 409 naming only the requestId. The same payload again is still a retry (202),
     * and every command in the log under that requestId is the first purchase.
     */
    @Test
    void aSequentialReuseWithAnotherQuantity_is422NamingQuantity_theSamePayloadIsStillARetry() throws Exception {
        long buyer = users.incrementAndGet();
        long goodsA = goods.incrementAndGet();
        String token = token(buyer);
        String id = "seq-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(buy(first, token, goodsA, 1, id, 0).get().statusCode()).isEqualTo(202);

        for (GatewayApp g : List.of(first, second)) {
            HttpResponse<String> quantity = buy(g, token, goodsA, 2, id, 0).get();
            assertThat(quantity.statusCode()).isEqualTo(422);
            assertThat(new JsonObject(quantity.body()).getString("field")).isEqualTo("quantity");
            HttpResponse<String> otherGoods =
                    buy(g, token, goods.incrementAndGet(), 1, id, 0).get();
            assertThat(otherGoods.statusCode()).isEqualTo(422);
            assertThat(new JsonObject(otherGoods.body()).getString("field")).isEqualTo("goodsId");
            HttpResponse<String> otherBuyer =
                    buy(g, token(users.incrementAndGet()), goodsA, 1, id, 0).get();
            assertThat(otherBuyer.statusCode()).isEqualTo(409);
            assertThat(new JsonObject(otherBuyer.body()).getString("field")).isEqualTo("requestId");
            assertThat(otherBuyer.body()).doesNotContain(Long.toString(goodsA), Long.toString(buyer));
            HttpResponse<String> retry = buy(g, token, goodsA, 1, id, 0).get();
            assertThat(retry.statusCode()).as("the same payload again").isEqualTo(202);
            assertThat(new JsonObject(retry.body()).getString("requestId")).isEqualTo(id);
        }
        assertThat(purchasesSent(id))
                .isNotEmpty()
                .allSatisfy(p -> assertThat(List.of(p.goodsId(), p.userId(), (long) p.quantity()))
                        .isEqualTo(List.of(goodsA, buyer, 1L)));
    }

    /**
     * The buyer's purchase (goods A) waits for its outcome; before it, an outcome of another purchase under the same
     * requestId arrives on the same partition (an upstream producer's on goods B), and the stream's REJECTED invalid of
     * reuses on goods A. The waiting buyer gets its own outcome, not goods B's (the old gateway answered goods B's); and
     * after its own is indexed, further outcomes of other purchases leave the status store with the buyer's own, so GET
     * through either instance answers it (the old index overwrote it: the buyer's GET was 404).
     */
    @Test
    void anOutcomeOfAnotherPurchaseUnderTheRequestId_neitherAnswersTheWaitingBuyer_norOverwritesItsStatus()
            throws Exception {
        long buyer = users.incrementAndGet();
        long upstreamBuyer = users.incrementAndGet();
        long goodsA = goods.incrementAndGet();
        long goodsB = samePartitionAs(goodsA);
        String id = "index-" + UUID.randomUUID().toString().substring(0, 8);
        double waitingBefore = metrics.get("seckill_gateway_waiters").gauge().value();
        CompletableFuture<HttpResponse<String>> waiting = buy(first, token(buyer), goodsA, 1, id, 30);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> metrics.get("seckill_gateway_waiters").gauge().value() > waitingBefore);

        decide(outcome(id, goodsB, upstreamBuyer, 1, OutcomeKind.SUCCESS, null));
        decide(outcome(id, goodsA, buyer, 2, OutcomeKind.REJECTED, "invalid")
                .withDetail("requestId " + id + " is already used by another purchase of goods " + goodsA));
        decide(outcome(id, goodsA, upstreamBuyer, 1, OutcomeKind.REJECTED, "invalid")
                .withDetail("requestId " + id + " is already used by another purchase of goods " + goodsA));
        decide(outcome(id, goodsA, buyer, 1, OutcomeKind.SUCCESS, null));

        HttpResponse<String> answered = waiting.get();
        assertThat(answered.statusCode()).isEqualTo(200);
        JsonObject own = new JsonObject(answered.body());
        assertThat(own.getString("status")).isEqualTo("SUCCESS");
        assertThat(own.getLong("goodsId")).as("the buyer's own goods").isEqualTo(goodsA);
        assertThat(own.getLong("userId")).isEqualTo(buyer);

        decide(outcome(id, goodsB, upstreamBuyer, 1, OutcomeKind.SOLD_OUT, null));
        String successMarker = "marker-s-" + UUID.randomUUID().toString().substring(0, 8);
        String rejectedMarker = "marker-r-" + UUID.randomUUID().toString().substring(0, 8);
        decide(outcome(successMarker, goodsB, upstreamBuyer, 1, OutcomeKind.SOLD_OUT, null));
        decide(outcome(rejectedMarker, goodsA, upstreamBuyer, 1, OutcomeKind.REJECTED, "invalid"));
        try (RedisClient redis = redis()) {
            // the index is in partition order: once the markers are in, every outcome above was indexed
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> redis.get(keys.purchaseStatus(successMarker)) != null
                            && redis.get(keys.purchaseStatus(rejectedMarker)) != null);
            JsonObject stored = new JsonObject(redis.get(keys.purchaseStatus(id)));
            assertThat(List.of(stored.getString("outcome"), stored.getLong("goodsId"), stored.getLong("userId")))
                    .isEqualTo(List.of("SUCCESS", goodsA, buyer));
        }
        for (GatewayApp g : List.of(first, second)) {
            HttpResponse<String> mine = status(g, id, token(buyer));
            assertThat(mine.statusCode()).isEqualTo(200);
            assertThat(new JsonObject(mine.body()).getLong("goodsId")).isEqualTo(goodsA);
            assertThat(new JsonObject(mine.body()).getString("status")).isEqualTo("SUCCESS");
            assertThat(status(g, id, token(upstreamBuyer)).statusCode())
                    .as("the id is the buyer's purchase, not the upstream one's")
                    .isEqualTo(404);
        }
    }

    static String token(long user) {
        return jwt.mint(user, Instant.now().plusSeconds(600));
    }

    static RedisClient redis() {
        return RedisClient.create(URI.create("redis://127.0.0.1:6379"));
    }

    static CompletableFuture<HttpResponse<String>> buy(
            GatewayApp g, String token, long goodsId, int quantity, String requestId, int waitSeconds) {
        TestGateways.openSale(settings, goodsId);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/api/purchases"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString("{\"goodsId\":" + goodsId + ",\"quantity\":" + quantity
                        + ",\"requestId\":\"" + requestId + "\"}"));
        if (waitSeconds > 0) b.header("Prefer", "wait=" + waitSeconds);
        return http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> status(GatewayApp g, String requestId, String token) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/api/purchases/" + requestId))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + token)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static Outcome outcome(String id, long goodsId, long userId, int quantity, OutcomeKind kind, String reason) {
        return Outcome.of(id, goodsId, userId, quantity, kind, reason, 3, Instant.now(), Instant.now(), 0, 0);
    }

    /** Writes an outcome as stock-stream does: to the topic of its kind, keyed by its goods. */
    static void decide(Outcome o) throws Exception {
        producer.send(new ProducerRecord<>(
                        topics.outcome(o.outcome()), Long.toString(o.goodsId()), OutcomeJson.encode(o)))
                .get();
    }

    /** Another goods whose records land on the same partition as {@code goodsId}'s (the default partitioner). */
    static long samePartitionAs(long goodsId) {
        int partitions =
                producer.partitionsFor(topics.outcome(OutcomeKind.SUCCESS)).size();
        long other = goods.incrementAndGet();
        while (partition(other, partitions) != partition(goodsId, partitions)) other = goods.incrementAndGet();
        return other;
    }

    static int partition(long goodsId, int partitions) {
        return Utils.toPositive(Utils.murmur2(Long.toString(goodsId).getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** Every purchase under {@code requestId} on the commands topic, read to its end (no consumer group). */
    static List<Purchase> purchasesSent(String requestId) {
        List<Purchase> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, byte[]>(
                Map.of("bootstrap.servers", KafkaFixture.bootstrap()),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topics.commands()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (CommandCodec.decode(r.value()) instanceof ParsedCommand.Valid v
                            && v.command() instanceof Purchase p
                            && p.requestId().equals(requestId)) out.add(p);
                }
            }
        }
        return out;
    }
}
