package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.RedisServer;
import java.net.URI;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * The gateway's OpenAPI document (served on its admin port) against the real gateway: every operation driven through
 * its documented answers — accepted, decided at the door and by the stream, waited for, each kind of refusal — and
 * each request and answer checked against the document (status, media type, body schema, headers). A planted
 * mismatch (an answer the document lacks, a field of another type) fails the check. The answers of a failing status
 * store, of Kafka not taking a purchase or a payment, and of a pipeline that never decides come from a gateway of its
 * own. Documented but not driven: the draining gateway's 503 (a request in the instant between the stop and its
 * listeners closing) and a 500 (a failure no handler caught).
 */
class OpenApiContractTest {
    static final String SECRET = "openapi-test-secret-Qw7Er4Ty1Ui8Op5As2";
    static final String PAYMENT_SECRET = "openapi-test-payment-provider-Zx6Cv3Bn9Mm2Lk5";
    static final long GOODS = 8101;
    static final long NOT_STARTED = 8102;
    static final long SOLD_OUT = 8103;
    static GatewayApp gateway;
    static Settings settings;
    static Jwt jwt;
    static final OpenApiDocument DOCUMENT = OpenApiDocument.fromJar();
    static final List<String> VIOLATIONS = new ArrayList<>();

    @BeforeAll
    static void start() {
        settings = TestGateways.namespaced(
                "openapi",
                Map.of(
                        "gateway.auth.secret",
                        SECRET,
                        "gateway.limit.user.per.second",
                        "1",
                        "gateway.limit.user.burst",
                        "2",
                        "gateway.payment.secret",
                        PAYMENT_SECRET));
        gateway = TestGateways.started(settings);
        jwt = new Jwt(SECRET, Clock.systemUTC());
        TestGateways.openSale(settings, GOODS);
        TestGateways.openSale(settings, SOLD_OUT);
        long now = System.currentTimeMillis();
        try (RedisClient redis = RedisClient.create(URI.create(settings.redisUrl()))) {
            String key = new RedisKeys(settings.redisPrefix()).sale(NOT_STARTED);
            redis.hset(key, Map.of("startAt", Long.toString(now + 3_600_000), "endAt", Long.toString(now + 7_200_000)));
            redis.pexpire(key, 3_600_000);
        }
    }

    @AfterAll
    static void stop() {
        gateway.close();
        TestGateways.removeNamespace(settings);
    }

    static String token(long user) {
        return "Bearer " + jwt.mint(user, Instant.now().plusSeconds(300));
    }

    /** Sends the request and checks the answer against the document; returns it. */
    static HttpResponse<String> call(String method, String template, String path, String body, String... headers)
            throws Exception {
        return callAt(VIOLATIONS, gateway.port(), method, template, path, body, headers);
    }

    /** {@link #call} on the gateway listening on {@code port}, what departs from the document added to {@code found}. */
    static HttpResponse<String> callAt(
            List<String> found, int port, String method, String template, String path, String body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        if (body == null) b.method(method, HttpRequest.BodyPublishers.noBody());
        else {
            if (headers.length == 0 || !List.of(headers).contains("Content-Type"))
                b.header("Content-Type", "application/json");
            b.method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> r = GatewayTest.http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        found.addAll(DOCUMENT.check(method, template, r));
        String contentType = body == null ? null : contentTypeOf(headers);
        List<String> request = new ArrayList<>(DOCUMENT.checkRequest(method, template, contentType, body));
        Map<String, String> sent = new java.util.HashMap<>();
        for (int i = 0; i < headers.length; i += 2) sent.put(headers[i], headers[i + 1]);
        List<String> parameters = DOCUMENT.checkParameters(method, template, path, sent);
        request.addAll(parameters);
        // a request the gateway took is one the document allows; one it refused for its body, one it does not
        if (r.statusCode() < 400 && !request.isEmpty())
            found.add("taken, but not a request the document allows: " + request);
        if (refusedForItsBody(r, body) && request.isEmpty())
            found.add(method + " " + template + " refused with " + r.statusCode()
                    + " for its body, which the document allows: " + body);
        if (refusedForAParameter(r, method, template) && parameters.isEmpty())
            found.add(method + " " + template + " refused with " + r.statusCode()
                    + " for a parameter the document allows: " + path);
        return r;
    }

    private static String contentTypeOf(String... headers) {
        for (int i = 0; i < headers.length; i += 2)
            if (headers[i].equalsIgnoreCase("Content-Type")) return headers[i + 1];
        return "application/json";
    }

    /**
     * A 415, or a 400 whose problem names one of the body's fields (not the body as a whole: its size limit is prose in
     * the document, not a schema's).
     */
    private static boolean refusedForItsBody(HttpResponse<String> r, String body) throws Exception {
        if (body == null) return false;
        if (r.statusCode() == 415) return true;
        if (r.statusCode() != 400) return false;
        String field = Json.MAPPER.readTree(r.body()).path("field").asText("");
        try {
            return !field.isEmpty() && Json.MAPPER.readTree(body).has(field);
        } catch (Exception notJson) {
            return true;
        }
    }

    /** A 400 whose problem names one of the operation's path or query parameters. */
    private static boolean refusedForAParameter(HttpResponse<String> r, String method, String template)
            throws Exception {
        if (r.statusCode() != 400) return false;
        String field = Json.MAPPER.readTree(r.body()).path("field").asText("");
        return DOCUMENT.pathAndQueryParameters(method, template).contains(field);
    }

    static HttpResponse<String> purchase(String body, String... headers) throws Exception {
        return call("POST", "/api/purchases", "/api/purchases", body, headers);
    }

    static void decided(String requestId, long goods, long user, OutcomeKind kind, long stockAfter) throws Exception {
        Outcome o = Outcome.of(requestId, goods, user, 1, kind, null, stockAfter, Instant.now(), Instant.now(), 0, 0);
        try (var producer = new KafkaProducer<String, byte[]>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaFixture.bootstrap()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(
                            new Topics(settings.topicPrefix()).outcome(kind), Long.toString(goods), Json.write(o)))
                    .get();
        }
    }

    @Test
    void theDocumentIsValidOpenApi31_andTheAdminPortServesIt() throws Exception {
        assertThat(DOCUMENT.parserMessages()).isEmpty();
        HttpResponse<String> served = GatewayTest.http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.metricsPort() + AdminPort.OPENAPI_PATH))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.body()).isEqualTo(DOCUMENT.text);
    }

    @Test
    void everyOperationAnswersAsDocumented() throws Exception {
        VIOLATIONS.clear();
        // a purchase: accepted; the same requestId by another buyer, and by the same buyer for another quantity
        String rid = "oa-" + UUID.randomUUID();
        String body = "{\"goodsId\":" + GOODS + ",\"requestId\":\"" + rid + "\"}";
        assertThat(purchase(body, "Authorization", token(11), "X-Trace-Id", "trace-oa")
                        .statusCode())
                .isEqualTo(202);
        assertThat(purchase(body, "Authorization", token(12)).statusCode()).isEqualTo(409);
        assertThat(purchase(
                                "{\"goodsId\":" + GOODS + ",\"quantity\":2,\"requestId\":\"" + rid + "\"}",
                                "Authorization",
                                token(11))
                        .statusCode())
                .isEqualTo(422);
        // refused: no token, a bad field, another buyer's userId, a form, too large, too fast
        assertThat(purchase("{\"goodsId\":" + GOODS + "}").statusCode()).isEqualTo(401);
        assertThat(purchase("{\"goodsId\":-1}", "Authorization", token(13)).statusCode())
                .isEqualTo(400);
        // a problem names the purchase the request named, whatever else is wrong with it
        String badRid = "oa-bad-" + UUID.randomUUID();
        HttpResponse<String> bad = purchase(
                "{\"goodsId\":" + GOODS + ",\"quantity\":0,\"requestId\":\"" + badRid + "\"}",
                "Authorization",
                token(13));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(bad.body()).path("requestId").asText()).isEqualTo(badRid);
        assertThat(Json.MAPPER.readTree(bad.body()).path("field").asText()).isEqualTo("quantity");
        HttpResponse<String> noToken = purchase("{\"goodsId\":" + GOODS + ",\"requestId\":\"" + badRid + "\"}");
        assertThat(noToken.statusCode()).isEqualTo(401);
        assertThat(Json.MAPPER.readTree(noToken.body()).path("requestId").asText())
                .isEqualTo(badRid);
        assertThat(purchase("{\"goodsId\":" + GOODS + ",\"userId\":99}", "Authorization", token(14))
                        .statusCode())
                .isEqualTo(403);
        assertThat(purchase(
                                "goodsId=1",
                                "Authorization",
                                token(15),
                                "Content-Type",
                                "application/x-www-form-urlencoded")
                        .statusCode())
                .isEqualTo(415);
        assertThat(purchase(
                                "{\"goodsId\":" + GOODS + ",\"pad\":\"" + "x".repeat(5_000) + "\"}",
                                "Authorization",
                                token(16))
                        .statusCode())
                .isEqualTo(400);
        int limited = 0;
        for (int i = 0; i < 4; i++) {
            String tooFast = "oa-fast-" + i + "-" + UUID.randomUUID();
            HttpResponse<String> r = purchase(
                    "{\"goodsId\":" + GOODS + ",\"requestId\":\"" + tooFast + "\"}", "Authorization", token(17));
            if (r.statusCode() != 429) continue;
            limited++;
            assertThat(Json.MAPPER.readTree(r.body()).path("requestId").asText())
                    .isEqualTo(tooFast);
        }
        assertThat(limited).as("a burst of 2 at 1/s").isPositive();
        // decided at the door: before the window, sold out
        await().atMost(Duration.ofSeconds(30)) // the door reads the window once the first purchase asked for it
                .until(() -> purchase("{\"goodsId\":" + NOT_STARTED + "}", "Authorization", token(18))
                        .body()
                        .contains("not_started"));
        decided("oa-last-" + UUID.randomUUID(), SOLD_OUT, 19, OutcomeKind.SUCCESS, 0);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> purchase("{\"goodsId\":" + SOLD_OUT + "}", "Authorization", token(20))
                        .body()
                        .contains("SOLD_OUT"));
        // waited for, and decided within the wait
        String quick = "oa-quick-" + UUID.randomUUID();
        var waiting = GatewayTest.http.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/purchases"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", token(23))
                        .header("Prefer", "wait=20")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"goodsId\":" + GOODS + ",\"requestId\":\"" + quick + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> call("GET", "/api/purchases/{requestId}", "/api/purchases/" + quick, null)
                                .statusCode()
                        == 200);
        decided(quick, GOODS, 23, OutcomeKind.SUCCESS, 6);
        HttpResponse<String> decidedInTheWait = waiting.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(decidedInTheWait.statusCode()).as(decidedInTheWait.body()).isEqualTo(200);
        assertThat(decidedInTheWait.body()).contains("\"outcome\":\"SUCCESS\"");
        VIOLATIONS.addAll(DOCUMENT.check("POST", "/api/purchases", decidedInTheWait));
        // waited for, and nothing decided it within the wait
        HttpResponse<String> waited =
                purchase("{\"goodsId\":" + GOODS + "}", "Authorization", token(21), "Prefer", "wait=1");
        assertThat(waited.statusCode()).isEqualTo(202);
        assertThat(waited.headers().firstValue("Preference-Applied")).contains("wait=1");

        // its answer: pending, then decided (to its owner, and to a caller without a token), unknown, a bad id
        String status = "/api/purchases/{requestId}";
        assertThat(call("GET", status, "/api/purchases/" + rid, null, "Authorization", token(11))
                        .body())
                .contains("PENDING");
        decided(rid, GOODS, 11, OutcomeKind.SUCCESS, 7);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> call("GET", status, "/api/purchases/" + rid, null, "Authorization", token(11))
                        .body()
                        .contains("\"outcome\":\"SUCCESS\""));
        assertThat(call("GET", status, "/api/purchases/" + rid, null).body()).contains("SUCCESS");
        assertThat(call("GET", status, "/api/purchases/" + rid, null, "Prefer", "wait=1")
                        .statusCode())
                .isEqualTo(200);
        assertThat(call("GET", status, "/api/purchases/none-" + UUID.randomUUID(), null, "Authorization", token(22))
                        .statusCode())
                .isEqualTo(404);
        assertThat(call("GET", status, "/api/purchases/bad%20id", null).statusCode())
                .isEqualTo(400);
        HttpResponse<String> badToken =
                call("GET", status, "/api/purchases/" + rid, null, "Authorization", "Bearer not-a-token");
        assertThat(badToken.statusCode()).isEqualTo(401);
        assertThat(Json.MAPPER.readTree(badToken.body()).path("requestId").asText())
                .isEqualTo(rid);

        // a buyer's purchases of a goods
        String list = "/api/purchases";
        assertThat(call("GET", list, "/api/purchases?goodsId=" + GOODS, null, "Authorization", token(11))
                        .body())
                .contains(rid);
        assertThat(call("GET", list, "/api/purchases?goodsId=" + GOODS, null).statusCode())
                .isEqualTo(401);
        assertThat(call("GET", list, "/api/purchases?goodsId=x", null, "Authorization", token(11))
                        .statusCode())
                .isEqualTo(400);

        // a payment from the provider; no credential, a buyer's, a bad order, no paymentId
        String pay = "/api/orders/{orderId}/pay";
        String provider = "Bearer " + PAYMENT_SECRET;
        assertThat(call("POST", pay, "/api/orders/55/pay", "{\"paymentId\":\"psp-1\"}", "Authorization", provider)
                        .statusCode())
                .isEqualTo(202);
        assertThat(call("POST", pay, "/api/orders/55/pay", "{\"paymentId\":\"psp-2\"}")
                        .statusCode())
                .isEqualTo(401);
        assertThat(call("POST", pay, "/api/orders/55/pay", "{\"paymentId\":\"psp-3\"}", "Authorization", token(11))
                        .statusCode())
                .isEqualTo(403);
        assertThat(call("POST", pay, "/api/orders/x/pay", "{\"paymentId\":\"psp-4\"}", "Authorization", provider)
                        .statusCode())
                .isEqualTo(400);
        assertThat(call("POST", pay, "/api/orders/56/pay", "{}", "Authorization", provider)
                        .statusCode())
                .isEqualTo(400);
        assertThat(call(
                                "POST",
                                pay,
                                "/api/orders/57/pay",
                                "paymentId=psp-5",
                                "Authorization",
                                provider,
                                "Content-Type",
                                "application/x-www-form-urlencoded")
                        .statusCode())
                .isEqualTo(415);

        assertThat(call("GET", "/health", "/health", null).statusCode()).isEqualTo(200);
        assertThat(call("GET", "/live", "/live", null).statusCode()).isEqualTo(200);

        assertThat(VIOLATIONS)
                .as("requests and answers the document does not describe")
                .isEmpty();
    }

    @Test
    void aPathOrMethodTheApiDoesNotHaveIsAProblemToo() throws Exception {
        for (String[] c : new String[][] {
            {"GET", "/api/nothing-here", "404", "no-such-path"},
            {"DELETE", "/api/purchases", "405", "method-not-allowed"},
            {"PUT", "/api/purchases/some-id", "405", "method-not-allowed"}
        }) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + c[1]))
                    .method(c[0], HttpRequest.BodyPublishers.noBody())
                    .build();
            HttpResponse<String> r = GatewayTest.http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(c[0] + " " + c[1]).isEqualTo(Integer.parseInt(c[2]));
            assertThat(r.headers().firstValue("Content-Type")).contains("application/problem+json");
            assertThat(DOCUMENT.validate(c[0] + " " + c[1], "/components/schemas/Problem", r.body()))
                    .isEmpty();
            assertThat(Json.MAPPER.readTree(r.body()).path("type").asText()).endsWith("/" + c[3]);
        }
    }

    @Test
    void aGatewayWithoutThePaymentProvidersCredentialAnswersPaymentsOffAsDocumented() throws Exception {
        Settings noPayments = TestGateways.namespaced("openapi-nopay", Map.of("gateway.auth.secret", SECRET));
        GatewayApp other = TestGateways.started(noPayments);
        try {
            HttpRequest request = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + other.port() + "/api/orders/58/pay"))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + PAYMENT_SECRET)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"paymentId\":\"psp-6\"}"))
                    .build();
            HttpResponse<String> r = GatewayTest.http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(Json.MAPPER.readTree(r.body()).path("type").asText()).endsWith("/payments-off");
            assertThat(DOCUMENT.check("POST", "/api/orders/{orderId}/pay", r)).isEmpty();
        } finally {
            other.close();
            TestGateways.removeNamespace(noPayments);
        }
    }

    /**
     * The answers that need the pipeline or the status store to fail, from a gateway of their own: a purchase no stream
     * decides is NOT_RECEIVED past the pending bound; a client polling too fast is limited; with its status store's
     * Redis stopped, the lookups answer 503 with Retry-After — each as the document says.
     */
    @Test
    void theAnswersOfAFailingStoreAndAPipelineThatNeverDecides_areAsDocumented() throws Exception {
        List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>()); // awaitility's thread adds
        try (RedisServer statusRedis = RedisServer.onFreePort().start()) {
            Settings failing = TestGateways.namespaced(
                    "openapi-faults",
                    Map.of(
                            "gateway.auth.secret", SECRET,
                            "gateway.status.redis.url", statusRedis.url(),
                            "gateway.pending.bound.ms", "1500",
                            "gateway.limit.status.per.second", "1",
                            "gateway.limit.status.burst", "3",
                            "gateway.payment.secret", PAYMENT_SECRET,
                            "gateway.kafka.timeout.ms", "2000"));
            GatewayApp other = TestGateways.started(failing);
            try {
                TestGateways.openSale(failing, GOODS);
                HttpResponse<String> accepted = callAt(
                        violations,
                        other.port(),
                        "POST",
                        "/api/purchases",
                        "/api/purchases",
                        "{\"goodsId\":" + GOODS + "}",
                        "Authorization",
                        token(41));
                assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
                String issued =
                        Json.MAPPER.readTree(accepted.body()).path("requestId").asText();
                String status = "/api/purchases/{requestId}";
                // no stream runs in this namespace: past the pending bound the purchase never got there
                HttpResponse<String> notReceived = await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(1100)) // the status limit: 1 a second
                        .until(
                                () -> callAt(violations, other.port(), "GET", status, "/api/purchases/" + issued, null),
                                r -> r.statusCode() == 404);
                assertThat(Json.MAPPER.readTree(notReceived.body()).path("type").asText())
                        .endsWith("/not-received");
                HttpResponse<String> limited = null;
                for (int i = 0; i < 6 && limited == null; i++) {
                    HttpResponse<String> r =
                            callAt(violations, other.port(), "GET", status, "/api/purchases/" + issued, null);
                    if (r.statusCode() == 429) limited = r;
                }
                assertThat(limited).as("a burst of 3 lookups at 1/s").isNotNull();
                assertThat(Json.MAPPER
                                .readTree(limited.body())
                                .path("requestId")
                                .asText())
                        .isEqualTo(issued);

                statusRedis.stop();
                HttpResponse<String> cannotTell = await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(1100))
                        .until(
                                () -> callAt(
                                        violations,
                                        other.port(),
                                        "GET",
                                        status,
                                        "/api/purchases/unknown-" + UUID.randomUUID(),
                                        null,
                                        "Authorization",
                                        token(41)),
                                r -> r.statusCode() == 503);
                assertThat(cannotTell.headers().firstValue("Retry-After")).isPresent();
                HttpResponse<String> listUnknown = await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(1100))
                        .until(
                                () -> callAt(
                                        violations,
                                        other.port(),
                                        "GET",
                                        "/api/purchases",
                                        "/api/purchases?goodsId=" + GOODS,
                                        null,
                                        "Authorization",
                                        token(41)),
                                r -> r.statusCode() == 503);
                assertThat(listUnknown.headers().firstValue("Retry-After")).isPresent();

                // Kafka cannot take a purchase or a payment (their topics gone): 503, retry after Retry-After
                Topics topics = new Topics(failing.topicPrefix());
                try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
                    admin.deleteTopics(List.of(topics.commands(), topics.payments()))
                            .all()
                            .get();
                }
                String lost = "oa-lost-" + UUID.randomUUID();
                HttpResponse<String> notTaken = callAt(
                        violations,
                        other.port(),
                        "POST",
                        "/api/purchases",
                        "/api/purchases",
                        "{\"goodsId\":" + GOODS + ",\"requestId\":\"" + lost + "\"}",
                        "Authorization",
                        token(42));
                assertThat(notTaken.statusCode()).as(notTaken.body()).isEqualTo(503);
                assertThat(notTaken.headers().firstValue("Retry-After")).isPresent();
                assertThat(Json.MAPPER
                                .readTree(notTaken.body())
                                .path("requestId")
                                .asText())
                        .isEqualTo(lost);
                HttpResponse<String> paymentNotTaken = callAt(
                        violations,
                        other.port(),
                        "POST",
                        "/api/orders/{orderId}/pay",
                        "/api/orders/59/pay",
                        "{\"paymentId\":\"psp-lost\"}",
                        "Authorization",
                        "Bearer " + PAYMENT_SECRET);
                assertThat(paymentNotTaken.statusCode())
                        .as(paymentNotTaken.body())
                        .isEqualTo(503);
                assertThat(paymentNotTaken.headers().firstValue("Retry-After")).isPresent();
            } finally {
                other.close();
                TestGateways.removeNamespace(failing);
            }
        }
        assertThat(violations).as("answers the document does not describe").isEmpty();
    }

    @Test
    void aRequestTheDocumentRefusesIsFoundSo() {
        assertThat(DOCUMENT.checkRequest("POST", "/api/purchases", "application/json", "{\"goodsId\":-1}"))
                .isNotEmpty();
        assertThat(DOCUMENT.checkRequest("POST", "/api/purchases", "application/json", "{\"quantity\":1}"))
                .as("no goodsId")
                .isNotEmpty();
        assertThat(DOCUMENT.checkRequest("POST", "/api/purchases", "text/plain", "x"))
                .isNotEmpty();
        assertThat(DOCUMENT.checkRequest("POST", "/api/purchases", "application/json", "{\"goodsId\":7}"))
                .isEmpty();
        // parameters: a path, a query, a missing required one
        String status = "/api/purchases/{requestId}";
        assertThat(DOCUMENT.checkParameters("GET", status, "/api/purchases/bad%20id", Map.of()))
                .singleElement()
                .asString()
                .contains("parameter requestId");
        assertThat(DOCUMENT.checkParameters("GET", status, "/api/purchases/oa-1", Map.of("Prefer", "wait=1")))
                .isEmpty();
        assertThat(DOCUMENT.checkParameters("GET", "/api/purchases", "/api/purchases?goodsId=x", Map.of()))
                .singleElement()
                .asString()
                .contains("parameter goodsId");
        assertThat(DOCUMENT.checkParameters("GET", "/api/purchases", "/api/purchases", Map.of()))
                .containsExactly("GET /api/purchases request: parameter goodsId missing");
        assertThat(DOCUMENT.checkParameters("GET", "/api/purchases", "/api/purchases?goodsId=7", Map.of()))
                .isEmpty();
    }

    @Test
    void aPlantedMismatch_anUndocumentedStatusOrAFieldOfAnotherType_failsTheCheck() throws Exception {
        ObjectNode planted = (ObjectNode) DOCUMENT.doc.deepCopy();
        ((ObjectNode) planted.at("/paths/~1api~1purchases/post/responses")).remove("409");
        ((ObjectNode) planted.at("/components/schemas/Pending/properties/requestId"))
                .removeAll()
                .put("type", "integer");
        OpenApiDocument document = new OpenApiDocument(Json.MAPPER.writeValueAsString(planted));

        String rid = "oa-planted-" + UUID.randomUUID();
        String body = "{\"goodsId\":" + GOODS + ",\"requestId\":\"" + rid + "\"}";
        HttpResponse<String> accepted = GatewayTest.post(gateway.port(), body, "Authorization", token(31));
        HttpResponse<String> conflict = GatewayTest.post(gateway.port(), body, "Authorization", token(32));

        assertThat(document.check("POST", "/api/purchases", conflict))
                .singleElement()
                .asString()
                .contains("409: status not documented");
        assertThat(document.check("POST", "/api/purchases", accepted))
                .isNotEmpty()
                .anySatisfy(v -> assertThat(v).contains("requestId"));
        // a header the document says is always sent, missing from an answer
        ((ObjectNode) planted.at("/components/responses/RateLimited/headers"))
                .putObject("X-Planted")
                .put("required", true)
                .putObject("schema")
                .put("type", "string");
        HttpResponse<String> limited = null;
        for (int i = 0; i < 4 && limited == null; i++) {
            HttpResponse<String> r =
                    GatewayTest.post(gateway.port(), "{\"goodsId\":" + GOODS + "}", "Authorization", token(33));
            if (r.statusCode() == 429) limited = r;
        }
        assertThat(limited).as("a burst of 2 at 1/s").isNotNull();
        assertThat(new OpenApiDocument(Json.MAPPER.writeValueAsString(planted))
                        .check("POST", "/api/purchases", limited))
                .anySatisfy(v -> assertThat(v).contains("X-Planted documented as always sent, missing"));
        assertThat(DOCUMENT.check("POST", "/api/purchases", limited))
                .as("Retry-After is sent")
                .isEmpty();
        // a header's value its schema refuses
        ((ObjectNode) planted.at("/components/headers/RetryAfter/schema")).put("pattern", "^soon$");
        assertThat(new OpenApiDocument(Json.MAPPER.writeValueAsString(planted))
                        .check("POST", "/api/purchases", limited))
                .anySatisfy(v -> assertThat(v).contains("header Retry-After"));
        assertThat(DOCUMENT.check("POST", "/api/purchases", accepted)).isEmpty();
        assertThat(new String(accepted.body().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                .contains("PENDING");
    }
}
