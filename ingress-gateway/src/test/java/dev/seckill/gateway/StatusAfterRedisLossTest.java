package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.RedisServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * The buyer's answer survives a Redis that lost its memory. A sale is decided, then the status store's Redis
 * (a redis-server of this test's own) is flushed — with the gateways restarted after it (two), or running through it. Every
 * buyer who asks — with a requestId of their own or one the gateway made — is told the true outcome once the store is
 * rebuilt from the outcome topics, and until then 503 with Retry-After: never 404 "no purchase", never PENDING, and a
 * winner's retry is never SOLD_OUT at the door. The time to the last true answer is bounded ({@link #REBUILT_WITHIN}).
 */
class StatusAfterRedisLossTest {
    /** The stated bound: every buyer's GET answers the true outcome within this time after the loss. */
    static final Duration REBUILT_WITHIN = Duration.ofSeconds(15);

    static final Duration PENDING_BOUND = Duration.ofSeconds(8);

    static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    static RedisServer redisServer;
    static RedisClient redis;
    static Settings settings;
    static Topics topics;
    static KafkaProducer<String, byte[]> outcomes;

    record Bought(String requestId, long goodsId, long userId, OutcomeKind kind) {}

    @BeforeAll
    static void start() {
        redisServer = RedisServer.onFreePort().start();
        redis = RedisClient.create(URI.create(redisServer.url()));
        String ns = "rl-" + UUID.randomUUID().toString().substring(0, 8);
        settings = Settings.with(Map.of(
                        Settings.KAFKA_BOOTSTRAP,
                        KafkaFixture.bootstrap(),
                        Settings.TOPIC_PREFIX,
                        ns + ".",
                        Settings.REDIS_PREFIX,
                        ns + ":",
                        Settings.REDIS_URL,
                        redisServer.url(),
                        "gateway.port",
                        "0",
                        "gateway.metrics.port",
                        "0",
                        "gateway.auth.enabled",
                        "false",
                        "gateway.limit.user.per.second",
                        "100000",
                        "gateway.limit.user.burst",
                        "100000",
                        "gateway.id.secret",
                        "ids-of-" + ns + "-shared-by-every-instance"))
                .and(Map.of(
                        "gateway.limit.status.per.second",
                        "100000",
                        "gateway.limit.status.burst",
                        "100000",
                        "gateway.pending.bound.ms", // short, so that the test sees the time after the bound too
                        Long.toString(PENDING_BOUND.toMillis()),
                        "gateway.status.ttl.rejected.ms",
                        Long.toString(PENDING_BOUND.toMillis())));
        topics = new Topics(ns + ".");
        outcomes = new KafkaProducer<>(
                Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    @AfterAll
    static void stop() throws Exception {
        outcomes.close();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
            admin.deleteTopics(topics.all()).all().get();
        }
        redis.close();
        redisServer.close();
    }

    static GatewayApp gateway() {
        GatewayApp g = new GatewayApp(settings, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start();
        await().atMost(Duration.ofSeconds(30)).until(g::statusComplete);
        return g;
    }

    @Test
    void redisFlushedAndTheGatewayRestarted_everyBuyerLearnsTheTruth_never404NeverPending() throws Exception {
        List<Bought> sale;
        try (GatewayApp before = gateway()) {
            sale = decidedSale(before, 101);
        }
        redis.flushAll();
        long lost = System.nanoTime(); // the bound runs from the loss, the gateways' restart inside it
        try (GatewayApp after =
                        new GatewayApp(settings, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start();
                GatewayApp another =
                        new GatewayApp(settings, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start()) {
            everyBuyerLearnsTheTruth(List.of(after, another), sale, lost);
            String never = "never-sent-" + UUID.randomUUID();
            assertThat(get(after, never).statusCode())
                    .as("rebuilt, but a claim of a purchase accepted just before the loss may be missing: 503")
                    .isEqualTo(503);
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(get(after, never).statusCode())
                            .as("a pending bound after the rebuild, an id never accepted is 404 again")
                            .isEqualTo(404));
        }
    }

    /**
     * The buyers ask a gateway that was running through the loss but started after their purchases were decided, so
     * nothing of theirs is in its memory (its outcome view starts at the end of the topics, it accepted none of them):
     * what it answers comes from the store, which it notices lost its memory.
     */
    @Test
    void redisFlushedUnderRunningGateways_theyNoticeAndRebuild_andAWinnersRetryIsNotSoldOutAtTheDoor()
            throws Exception {
        try (GatewayApp accepted = gateway()) {
            List<Bought> sale = decidedSale(accepted, 202);
            try (GatewayApp asked = gateway()) {
                RedisKeys keys = new RedisKeys(settings.redisPrefix()); // the sale as the stream leaves it: sold out
                long now = System.currentTimeMillis();
                redis.hset(
                        keys.sale(202),
                        Map.of("startAt", Long.toString(now - 60_000), "endAt", Long.toString(now + 600_000)));
                redis.set(keys.stock(202), "0");
                Instant late = Instant.now(); // a late buyer's SOLD_OUT: the asked gateway's door marks the goods
                outcomes.send(new ProducerRecord<>(
                                topics.outcome(OutcomeKind.SOLD_OUT),
                                "202",
                                OutcomeJson.encode(Outcome.of(
                                        "rl-late", 202, 202_998, 1, OutcomeKind.SOLD_OUT, null, 0, late, late, 0, 0))))
                        .get();
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> buy(asked, 202, 202_999, null).body().contains("SOLD_OUT"));
                redis.flushAll();
                long lost = System.nanoTime();
                for (Bought b : sale) {
                    if (b.kind() != OutcomeKind.SUCCESS || b.requestId().startsWith("g-")) continue;
                    HttpResponse<String> retry = buy(asked, b.goodsId(), b.userId(), b.requestId());
                    // the door does not answer it: it goes to the stream (202), or is answered with its SUCCESS
                    assertThat(retry.statusCode() == 202
                                    || (retry.statusCode() == 200 && "SUCCESS".equals(statusOf(retry))))
                            .as("the winner's retry after the loss is taken or answered SUCCESS, not refused at the"
                                    + " door: " + retry.statusCode() + " " + retry.body())
                            .isTrue();
                }
                everyBuyerLearnsTheTruth(List.of(asked), sale, lost);
            }
        }
    }

    /**
     * Ten buyers with requestIds of their own and five without, of goods {@code goods}: the first six SUCCESS (one
     * unit each), the others SOLD_OUT; every GET answers its outcome before the test goes on.
     */
    static List<Bought> decidedSale(GatewayApp g, long goods) throws Exception {
        List<Bought> sale = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            long user = goods * 1000 + i;
            HttpResponse<String> r = buy(g, goods, user, i < 10 ? "rl-" + goods + "-" + i : null);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            String id = new JsonObject(r.body()).getString("requestId");
            OutcomeKind kind = i % 15 < 6 ? OutcomeKind.SUCCESS : OutcomeKind.SOLD_OUT;
            sale.add(new Bought(id, goods, user, kind));
        }
        for (Bought b : sale) { // decided once all are in: a SOLD_OUT seen earlier would answer the rest at the door
            Outcome o = Outcome.of(
                    b.requestId(), goods, b.userId(), 1, b.kind(), null, 0, Instant.now(), Instant.now(), 0, 0);
            outcomes.send(new ProducerRecord<>(topics.outcome(b.kind()), Long.toString(goods), OutcomeJson.encode(o)))
                    .get();
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (Bought b : sale)
                assertThat(statusOf(get(g, b.requestId()))).isEqualTo(b.kind().name());
        });
        return sale;
    }

    /**
     * Asks the gateways, in turn, for every purchase until each answers its outcome; every answer on the way is the truth
     * or 503 with Retry-After, all within {@link #REBUILT_WITHIN} of the loss ({@code lostNanos}). An answer that is
     * neither is collected, not asserted inside the wait (where a failure is retried and lost).
     */
    static void everyBuyerLearnsTheTruth(List<GatewayApp> gateways, List<Bought> sale, long lostNanos) {
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        Duration left = REBUILT_WITHIN.minus(Duration.ofNanos(System.nanoTime() - lostNanos));
        await().atMost(left.isNegative() ? Duration.ofMillis(1) : left)
                .pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> {
                    int right = 0;
                    for (int i = 0; i < sale.size(); i++) {
                        Bought b = sale.get(i);
                        HttpResponse<String> r = get(gateways.get(i % gateways.size()), b.requestId());
                        if (r.statusCode() == 503) {
                            if (r.headers().firstValue("Retry-After").isEmpty())
                                wrong.add(b.requestId() + " -> 503 without Retry-After");
                        } else if (r.statusCode() == 200 && b.kind().name().equals(statusOf(r))) {
                            right++;
                        } else {
                            wrong.add(b.requestId() + " -> " + r.statusCode() + " " + r.body());
                        }
                    }
                    assertThat(right).isEqualTo(sale.size());
                });
        assertThat(wrong).as("answers that were neither the truth nor 503").isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - lostNanos))
                .as("from the loss to every buyer's true answer")
                .isLessThan(REBUILT_WITHIN);
    }

    static HttpResponse<String> buy(GatewayApp g, long goods, long user, String requestId) throws Exception {
        String body = "{\"goodsId\":" + goods + ",\"userId\":" + user + ",\"quantity\":1"
                + (requestId == null ? "" : ",\"requestId\":\"" + requestId + "\"") + "}";
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/api/purchases"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(GatewayApp g, String requestId) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/api/purchases/" + requestId))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String statusOf(HttpResponse<String> r) {
        return r.statusCode() == 200 ? new JsonObject(r.body()).getString("status") : "HTTP " + r.statusCode();
    }
}
