package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
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
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The buyer's answer, over a real broker and the machine's Redis: {@code Prefer: wait} holds the reply until
 * the outcome is known, GET answers from state every instance shares and that survives restarts, an id never accepted
 * is 404, and waiters cost no thread. The outcomes are written to the outcome topics here as stock-stream writes them
 * (the gateway module does not run the stream; infra's tests run the whole pipeline).
 */
class BuyerAnswerTest {
    static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    static Settings settings;
    static Topics topics;
    static GatewayApp gateway;
    static PrometheusMeterRegistry metrics;
    static KafkaProducer<String, byte[]> outcomes;

    @BeforeAll
    static void start() {
        String ns = "ba-" + UUID.randomUUID().toString().substring(0, 8);
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
                "false",
                "gateway.limit.user.per.second",
                "100000",
                "gateway.limit.user.burst",
                "100000",
                "gateway.max.wait.seconds",
                "60", // the 2,000 waiters ask for 30 s: not capped at the default 10 while they are being sent
                "gateway.id.secret",
                "ids-of-" + ns + "-shared-by-every-instance"));
        topics = new Topics(ns + ".");
        metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        gateway = TestGateways.started(settings, metrics);
        outcomes = new KafkaProducer<>(
                Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        outcomes.close();
        TestGateways.removeNamespace(settings);
    }

    static HttpRequest.Builder request(GatewayApp g, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + path))
                .timeout(Duration.ofSeconds(60));
    }

    /**
     * A purchase of goods {@code user / 1000 * 1000 + 1}: each test's buyers buy their own goods, so a SOLD_OUT one
     * test writes never short-circuits another test's purchases at the door.
     */
    static CompletableFuture<HttpResponse<String>> buy(GatewayApp g, String requestId, long user, int waitSeconds) {
        TestGateways.openSale(settings, goodsOf(user));
        HttpRequest.Builder b = request(g, "/api/purchases")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"goodsId\":" + goodsOf(user) + ",\"userId\":" + user
                        + ",\"quantity\":1,\"requestId\":\"" + requestId + "\"}"));
        if (waitSeconds > 0) b.header("Prefer", "wait=" + waitSeconds);
        return http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> status(GatewayApp g, String requestId, String... headers) throws Exception {
        HttpRequest.Builder b = request(g, "/api/purchases/" + requestId).GET();
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static long goodsOf(long user) {
        return user / 1000 * 1000 + 1;
    }

    /** Writes an outcome as stock-stream does: to the topic of its kind, keyed by goods. */
    static void decide(String requestId, long user, OutcomeKind kind, String reason) throws Exception {
        Outcome o = Outcome.of(requestId, goodsOf(user), user, 1, kind, reason, 7, Instant.now(), Instant.now(), 0, 0);
        outcomes.send(new ProducerRecord<>(topics.outcome(kind), Long.toString(goodsOf(user)), OutcomeJson.encode(o)))
                .get();
    }

    static String field(HttpResponse<String> r, String name) {
        return new JsonObject(r.body()).getString(name);
    }

    /** Waits until the gateway holds this many waiters: the requests are in, their replies held. */
    static void awaitWaiters(int n) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> metrics.get("seckill_gateway_waiters").gauge().value() >= n);
    }

    @Test
    void preferWaitAnswersEachKindOfOutcome_andTheDeadlineGives202Pending() throws Exception {
        record Case(String id, long user, OutcomeKind kind, String reason) {}
        List<Case> cases = List.of(
                new Case("pw-s", 2011, OutcomeKind.SUCCESS, null),
                new Case("pw-o", 2012, OutcomeKind.SOLD_OUT, null),
                new Case("pw-d", 2013, OutcomeKind.DUPLICATE, null),
                new Case("pw-r", 2014, OutcomeKind.REJECTED, "over_limit"));
        List<CompletableFuture<HttpResponse<String>>> replies = new ArrayList<>();
        for (Case c : cases) replies.add(buy(gateway, c.id(), c.user(), 10));
        awaitWaiters(cases.size());
        for (Case c : cases) decide(c.id(), c.user(), c.kind(), c.reason());
        for (int i = 0; i < cases.size(); i++) {
            HttpResponse<String> r = replies.get(i).get();
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(field(r, "status")).isEqualTo(cases.get(i).kind().name());
            assertThat(field(r, "reason")).isEqualTo(cases.get(i).reason());
            assertThat(field(r, "requestId")).isEqualTo(cases.get(i).id());
            assertThat(r.headers().firstValue("Preference-Applied")).hasValue("wait=10");
        }

        long before = System.nanoTime();
        HttpResponse<String> late = buy(gateway, "pw-late", 6015, 1).get();
        assertThat(late.statusCode()).isEqualTo(202);
        assertThat(field(late, "status")).isEqualTo("PENDING");
        assertThat(late.headers().firstValue("Preference-Applied")).hasValue("wait=1");
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(Duration.ofMillis(1000));
        assertThat(buy(gateway, "pw-plain", 6016, 0).get().statusCode())
                .as("without the header nothing changes")
                .isEqualTo(202);
    }

    @Test
    void getTellsTheTruth_404Unknown_pendingPending_decidedThroughAnotherInstanceAndAfterARestart() throws Exception {
        assertThat(status(gateway, "never-sent").statusCode()).isEqualTo(404);
        assertThat(buy(gateway, "truth-1", 3021, 0).get().statusCode()).isEqualTo(202);
        HttpResponse<String> pending = status(gateway, "truth-1");
        assertThat(pending.statusCode()).isEqualTo(200);
        assertThat(field(pending, "status")).isEqualTo("PENDING");

        PrometheusMeterRegistry secondMetrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (GatewayApp second = TestGateways.started(settings, secondMetrics)) {
            assertThat(field(status(second, "truth-1"), "status"))
                    .as("accepted through the first instance")
                    .isEqualTo("PENDING");
            CompletableFuture<HttpResponse<String>> longPoll = http.sendAsync(
                    request(second, "/api/purchases/truth-1")
                            .header("Prefer", "wait=10")
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            // the long poll is held by the second instance before the outcome exists: it is its waiter that the
            // outcome, accepted through the first instance, must wake
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            secondMetrics.get("seckill_gateway_waiters").gauge().value() >= 1);
            assertThat(longPoll).as("held, not answered").isNotDone();
            long decidedAt = System.nanoTime();
            decide("truth-1", 3021, OutcomeKind.SUCCESS, null);
            assertThat(field(longPoll.get(), "status"))
                    .as("the long poll through the second instance")
                    .isEqualTo("SUCCESS");
            assertThat(Duration.ofNanos(System.nanoTime() - decidedAt))
                    .as("woken by the outcome, not answered at its 10 s deadline")
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(secondMetrics.get("seckill_gateway_waiters").gauge().value())
                    .as("the waiter left")
                    .isZero();
            assertThat(longPoll.get().headers().firstValue("Preference-Applied"))
                    .hasValue("wait=10");
            assertThat(status(second, "truth-1", "Prefer", "wait=5").statusCode())
                    .isEqualTo(200);
            long before = System.nanoTime();
            HttpResponse<String> retried = buy(second, "truth-1", 3021, 10).get();
            assertThat(retried.statusCode())
                    .as("the owner's retry of a decided purchase, waiting")
                    .isEqualTo(200);
            assertThat(field(retried, "status")).isEqualTo("SUCCESS");
            assertThat(Duration.ofNanos(System.nanoTime() - before))
                    .as("answered at once, not at the deadline")
                    .isLessThan(Duration.ofSeconds(5));
            // another buyer's requestId is refused across instances before anything reaches Kafka
            assertThat(buy(second, "truth-1", 3099, 0).get().statusCode()).isEqualTo(409);
        }
        // a gateway started after the outcome was decided (its view starts at the end of the topics) still knows it
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            try (GatewayApp restarted = TestGateways.started(settings)) {
                HttpResponse<String> decided = status(restarted, "truth-1");
                assertThat(decided.statusCode()).isEqualTo(200);
                assertThat(field(decided, "status")).isEqualTo("SUCCESS");
                assertThat(status(restarted, "never-sent").statusCode()).isEqualTo(404);
            }
        });
    }

    @Test
    void twoThousandWaitersAllGetTheirAnswer_andTheGatewaysThreadsDoNotGrowWithThem() throws Exception {
        int n = 2000;
        List<CompletableFuture<HttpResponse<String>>> replies = new ArrayList<>();
        // the first thousand start whatever the waiting path starts once, on demand (event loops, client threads, a
        // worker, the sale-window lookups: after one purchase alone, three of those came later on one machine); the
        // next thousand may add none of theirs — a thread per waiter would add a thousand
        for (int i = 0; i < n / 2; i++) replies.add(buy(gateway, "many-" + i, 10_000 + i, 30));
        awaitWaiters(n / 2);
        long threadsAtHalf = gatewayThreads();
        for (int i = n / 2; i < n; i++) replies.add(buy(gateway, "many-" + i, 10_000 + i, 30));
        awaitWaiters(n);
        assertThat(gatewayThreads())
                .as("a thousand more waiters are timers and map entries, not threads")
                .isLessThanOrEqualTo(threadsAtHalf + 4);
        for (int i = 0; i < n; i++) {
            Outcome o = Outcome.of(
                    "many-" + i,
                    goodsOf(10_000 + i),
                    10_000 + i,
                    1,
                    i % 2 == 0 ? OutcomeKind.SUCCESS : OutcomeKind.SOLD_OUT,
                    null,
                    0,
                    Instant.now(),
                    Instant.now(),
                    0,
                    i);
            outcomes.send(new ProducerRecord<>(
                    topics.outcome(o.outcome()), Long.toString(o.goodsId()), OutcomeJson.encode(o)));
        }
        outcomes.flush();
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = replies.get(i).get();
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(field(r, "status")).isEqualTo(i % 2 == 0 ? "SUCCESS" : "SOLD_OUT");
        }
    }

    @Test
    void aGatewayShuttingDownAnswersItsWaitersBeforeItCloses() throws Exception {
        GatewayApp leaving = TestGateways.started(settings);
        CompletableFuture<HttpResponse<String>> waiting = buy(leaving, "leaving-1", 5041, 30);
        await().atMost(Duration.ofSeconds(30)).until(() -> field(status(leaving, "leaving-1"), "status") != null);
        leaving.close();
        HttpResponse<String> r = waiting.get();
        assertThat(r.statusCode()).isEqualTo(202);
        assertThat(field(r, "status")).isEqualTo("PENDING");
    }

    /** Threads the gateway runs: Vert.x's, Kafka clients' and the gateway's own (the test's HTTP client excluded). */
    static long gatewayThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> n.startsWith("vert.x-") || n.startsWith("kafka-") || n.startsWith("gateway-"))
                .count();
    }

    @Test
    void anIdTheGatewayMadeIsPendingThroughAnotherInstanceAtOnce_aForgedOneIs404() throws Exception {
        HttpResponse<String> accepted = http.send(
                request(gateway, "/api/purchases")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"goodsId\":7001,\"userId\":7001,\"quantity\":1}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(accepted.statusCode()).isEqualTo(202);
        String id = field(accepted, "requestId");
        assertThat(id).matches("g-[0-9a-f]{43}");
        try (GatewayApp second = TestGateways.started(settings)) {
            HttpResponse<String> pending = status(second, id);
            assertThat(pending.statusCode())
                    .as("issued by a gateway: pending through any instance, nothing written for it")
                    .isEqualTo(200);
            assertThat(field(pending, "status")).isEqualTo("PENDING");
            String forged = id.substring(0, 30) + (id.charAt(30) == 'a' ? 'b' : 'a') + id.substring(31);
            assertThat(status(second, forged).statusCode())
                    .as("a forged id was never accepted")
                    .isEqualTo(404);
            decide(id, 7001, OutcomeKind.SUCCESS, null);
            await().atMost(Duration.ofSeconds(30)).until(() -> "SUCCESS".equals(field(status(second, id), "status")));
        }
    }
}
