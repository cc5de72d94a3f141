package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.RedisServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
 * The reads a hostile client floods: GET limited per buyer and per address (429), waiters capped (503 for a
 * GET, an accepted purchase answered at once), a store that cannot answer is 503 not 404, PENDING bounded by the
 * pipeline's expected lag (then 404 NOT_RECEIVED), and a buyer's own list of purchases of a goods. Each case on a
 * gateway of its own settings, over a real broker and a redis-server of this test's own.
 */
class StatusReadsTest {
    static final String SECRET = "status-reads-test-secret-Rf6Yu2Hs9Dk3Xa7Wq";
    static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    static final Jwt jwt = new Jwt(SECRET, Clock.systemUTC());
    static final List<Topics> made = new ArrayList<>();
    static RedisServer redisServer;
    static KafkaProducer<String, byte[]> outcomes;

    @BeforeAll
    static void start() {
        redisServer = RedisServer.onFreePort().start();
        outcomes = new KafkaProducer<>(
                Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    @AfterAll
    static void stop() throws Exception {
        outcomes.close();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
            for (Topics t : made) admin.deleteTopics(t.all()).all().get();
        }
        redisServer.close();
    }

    /** A gateway of its own namespace with these settings over the defaults of this test. */
    static Settings settings(String... pairs) {
        String ns = "sr-" + UUID.randomUUID().toString().substring(0, 8);
        made.add(new Topics(ns + "."));
        Map<String, String> extra = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) extra.put(pairs[i], pairs[i + 1]);
        return Settings.with(Map.of(
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
                        "gateway.auth.secret",
                        SECRET))
                .and(extra);
    }

    static HttpResponse<String> get(GatewayApp g, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + path))
                .timeout(Duration.ofSeconds(30))
                .GET();
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> buy(GatewayApp g, long user, long goods, String requestId, String... headers)
            throws Exception {
        String body = "{\"goodsId\":" + goods + (requestId == null ? "" : ",\"requestId\":\"" + requestId + "\"") + "}";
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/api/purchases"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token(user))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String token(long user) {
        return jwt.mint(user, Instant.now().plusSeconds(600));
    }

    static void decide(Settings s, String requestId, long goods, long user, OutcomeKind kind) throws Exception {
        Outcome o = Outcome.of(requestId, goods, user, 1, kind, null, 0, Instant.now(), Instant.now(), 0, 0);
        outcomes.send(new ProducerRecord<>(
                        new Topics(s.topicPrefix()).outcome(kind), Long.toString(goods), OutcomeJson.encode(o)))
                .get();
    }

    @Test
    void unauthenticatedLookupsAreLimitedPerAddress_aBuyersOwnByTheirToken() throws Exception {
        try (GatewayApp g = TestGateways.started(
                settings("gateway.limit.status.per.second", "1", "gateway.limit.status.burst", "3"))) {
            List<Integer> codes = new ArrayList<>();
            for (int i = 0; i < 6; i++)
                codes.add(get(g, "/api/purchases/random-" + i).statusCode());
            assertThat(codes).startsWith(404, 404, 404).contains(429);
            HttpResponse<String> limited = get(g, "/api/purchases/random-x");
            assertThat(limited.statusCode()).isEqualTo(429);
            assertThat(limited.headers().firstValue("Retry-After")).isPresent();
            assertThat(limited.body()).contains("address");
            assertThat(get(g, "/api/purchases/random-y", "Authorization", "Bearer " + token(77))
                            .statusCode())
                    .as("a buyer's token has its own share, not the address's")
                    .isEqualTo(404);
        }
    }

    @Test
    void waitersAreCapped_aGetBeyondIs503_anAcceptedPurchaseIsAnsweredAtOnce() throws Exception {
        Settings s = settings("gateway.max.waiters", "2");
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (GatewayApp g = TestGateways.started(s, metrics)) {
            TestGateways.openSale(s, 5);
            List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                String id = "held-" + i;
                assertThat(buy(g, 100 + i, 5, id).statusCode()).isEqualTo(202);
                held.add(http.sendAsync(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/api/purchases/" + id))
                                .header("Authorization", "Bearer " + token(100 + i))
                                .header("Prefer", "wait=20")
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> metrics.get("seckill_gateway_waiters").gauge().value() >= 2);
            assertThat(buy(g, 102, 5, "held-2").statusCode()).isEqualTo(202);
            HttpResponse<String> beyond =
                    get(g, "/api/purchases/held-2", "Authorization", "Bearer " + token(102), "Prefer", "wait=20");
            assertThat(beyond.statusCode()).isEqualTo(503);
            assertThat(beyond.headers().firstValue("Retry-After")).isPresent();
            long before = System.nanoTime();
            HttpResponse<String> accepted = buy(g, 103, 5, "held-3", "Prefer", "wait=20");
            assertThat(accepted.statusCode()).as("accepted, not held").isEqualTo(202);
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(10));
            decide(s, "held-0", 5, 100, OutcomeKind.SUCCESS);
            decide(s, "held-1", 5, 101, OutcomeKind.SOLD_OUT);
            assertThat(held.get(0).get().body()).contains("SUCCESS");
            assertThat(held.get(1).get().body()).contains("SOLD_OUT");
        }
    }

    @Test
    void aStoreThatCannotAnswerIs503_not404() throws Exception {
        try (RedisServer own = RedisServer.onFreePort().start()) {
            try (GatewayApp g = TestGateways.started(settings("gateway.status.redis.url", own.url()))) {
                assertThat(get(g, "/api/purchases/never-sent").statusCode()).isEqualTo(404);
                try (RedisClient stock = RedisClient.create(URI.create(redisServer.url()))) {
                    assertThat(stock.keys("*purchase:*"))
                            .as("the status lives in its own Redis")
                            .isEmpty();
                }
                own.stop();
                HttpResponse<String> r = get(g, "/api/purchases/never-sent");
                assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
                assertThat(r.headers().firstValue("Retry-After")).isPresent();
            }
        }
    }

    @Test
    void pendingIsBoundedByTheExpectedLag_thenNotReceived() throws Exception {
        Settings s = settings("gateway.pending.bound.ms", "1500");
        try (GatewayApp g = TestGateways.started(s)) {
            TestGateways.openSale(s, 6);
            HttpResponse<String> accepted = buy(g, 200, 6, null);
            String id = new JsonObject(accepted.body()).getString("requestId");
            String auth = "Bearer " + token(200);
            assertThat(new JsonObject(get(g, "/api/purchases/" + id, "Authorization", auth)
                                    .body())
                            .getString("status"))
                    .isEqualTo("PENDING");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                HttpResponse<String> r = get(g, "/api/purchases/" + id, "Authorization", auth);
                assertThat(r.statusCode()).isEqualTo(404);
                assertThat(r.headers().firstValue("Content-Type")).contains("application/problem+json");
                JsonObject problem = new JsonObject(r.body());
                assertThat(problem.getString("purchaseStatus")).isEqualTo("NOT_RECEIVED");
                assertThat(problem.getString("type")).isEqualTo("https://seckill.dev/problems/not-received");
                assertThat(problem.getInteger("status")).isEqualTo(404);
            });
            assertThat(buy(g, 201, 6, "claimed-1").statusCode()).isEqualTo(202);
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(
                                    get(g, "/api/purchases/claimed-1", "Authorization", "Bearer " + token(201))
                                            .statusCode())
                            .as("a claim no outcome followed lives the bound, then is gone")
                            .isEqualTo(404));
        }
    }

    @Test
    void aBuyerListsTheirOwnPurchasesOfAGoods_andOnlyTheirs() throws Exception {
        Settings s = settings();
        try (GatewayApp g = TestGateways.started(s)) {
            TestGateways.openSale(s, 7);
            assertThat(buy(g, 300, 7, "mine-1").statusCode()).isEqualTo(202);
            String made = new JsonObject(buy(g, 300, 7, null).body()).getString("requestId");
            decide(s, "mine-1", 7, 300, OutcomeKind.SUCCESS);
            decide(s, made, 7, 300, OutcomeKind.DUPLICATE);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                HttpResponse<String> r = get(g, "/api/purchases?goodsId=7", "Authorization", "Bearer " + token(300));
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                JsonArray list = new JsonObject(r.body()).getJsonArray("purchases");
                assertThat(list.stream()
                                .map(o -> ((JsonObject) o).getString("requestId") + "="
                                        + ((JsonObject) o).getString("status")))
                        .containsExactlyInAnyOrder("mine-1=SUCCESS", made + "=DUPLICATE");
            });
            HttpResponse<String> other = get(g, "/api/purchases?goodsId=7", "Authorization", "Bearer " + token(301));
            assertThat(new JsonObject(other.body()).getJsonArray("purchases")).isEmpty();
            assertThat(get(g, "/api/purchases?goodsId=7").statusCode())
                    .as("no token")
                    .isEqualTo(401);
            HttpResponse<String> bad = get(g, "/api/purchases?goodsId=x", "Authorization", "Bearer " + token(300));
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(new JsonObject(bad.body()).getString("field")).isEqualTo("goodsId");
        }
    }
}
