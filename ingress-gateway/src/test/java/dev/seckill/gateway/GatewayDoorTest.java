package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.payment.PaymentRoute;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** The door with auth on: verified identity, rate limits with Retry-After, and the sale-window short-circuit. */
class GatewayDoorTest {
    static final String SECRET = "door-test-secret-h4Tn8Wq2Ze6Ly9Kc3Pd7";
    static final String PAYMENT_SECRET = "door-test-payment-provider-credential-Vb5Jx1Mr8Gt4";
    static GatewayApp gateway;
    static Jwt jwt;
    static String prefix;
    static String redisPrefix;
    static Settings settings;
    static final AtomicLong users = new AtomicLong(1000);

    @BeforeAll
    static void start() {
        prefix = "door-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        redisPrefix = "door-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        Settings s = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                prefix,
                Settings.REDIS_PREFIX,
                redisPrefix,
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "gateway.auth.enabled",
                "true",
                "gateway.auth.secret",
                SECRET,
                "gateway.limit.user.per.second",
                "1",
                "gateway.limit.user.burst",
                "2",
                "gateway.payment.secret",
                PAYMENT_SECRET));
        settings = s;
        gateway = TestGateways.started(s);
        jwt = new Jwt(SECRET, Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        gateway.close();
        TestGateways.removeNamespace(settings);
    }

    static HttpResponse<String> post(String body, String token) throws Exception {
        return token == null
                ? GatewayTest.post(gateway.port(), body)
                : GatewayTest.post(gateway.port(), body, "Authorization", "Bearer " + token);
    }

    static String valid(long user) {
        return jwt.mint(user, Instant.now().plusSeconds(300));
    }

    @Test
    void noTokenIs401() throws Exception {
        HttpResponse<String> r = post("{\"goodsId\":1,\"userId\":5}", null);
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("missing bearer token");
        assertThat(r.headers().firstValue("WWW-Authenticate")).contains("Bearer");
    }

    @Test
    void aForgedTokenIs401() throws Exception {
        String forged = new Jwt("another-secret-that-is-long-enough-123456", Clock.systemUTC())
                .mint(5, Instant.now().plusSeconds(300));
        assertThat(post("{\"goodsId\":1,\"userId\":5}", forged).body()).contains("bad token signature");
        String tampered = valid(5);
        String[] parts = tampered.split("\\.");
        String otherClaims = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(("{\"sub\":\"6\",\"exp\":"
                                + Instant.now().plusSeconds(300).getEpochSecond() + "}")
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(post("{\"goodsId\":1}", parts[0] + "." + otherClaims + "." + parts[2])
                        .statusCode())
                .isEqualTo(401);
        String none = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> algNone = post("{\"goodsId\":1}", none + "." + parts[1] + ".");
        assertThat(algNone.statusCode()).isEqualTo(401);
        assertThat(algNone.body()).contains("unsupported token algorithm");
        assertThat(post("{\"goodsId\":1}", "not-a-jwt").statusCode()).isEqualTo(401);
    }

    @Test
    void anExpiredTokenIs401() throws Exception {
        HttpResponse<String> r =
                post("{\"goodsId\":1,\"userId\":5}", jwt.mint(5, Instant.now().minusSeconds(10)));
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("token expired");
    }

    @Test
    void aBodyUserIdOtherThanTheTokensIs403() throws Exception {
        HttpResponse<String> r = post("{\"goodsId\":1,\"userId\":6}", valid(5));
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("\"field\":\"userId\"");
    }

    @Test
    void theBuyerComesFromTheToken() throws Exception {
        long user = users.incrementAndGet();
        HttpResponse<String> r = post("{\"goodsId\":77,\"requestId\":\"door-sub-1\"}", valid(user));
        assertThat(r.statusCode()).isEqualTo(202);
        var sent = GatewayTest.commandsIn(KafkaFixture.bootstrap(), prefix + "commands").stream()
                .map(c -> CommandCodec.decode(c.value()))
                .filter(p -> p instanceof ParsedCommand.Valid)
                .map(p -> (Purchase) ((ParsedCommand.Valid) p).command())
                .filter(p -> p.requestId().equals("door-sub-1"))
                .toList();
        assertThat(sent).singleElement().extracting(Purchase::userId).isEqualTo(user);
    }

    @Test
    void aBuyerOverTheirLimitGets429WithRetryAfter() throws Exception {
        long user = users.incrementAndGet();
        String token = valid(user);
        assertThat(post("{\"goodsId\":78}", token).statusCode()).isEqualTo(202);
        assertThat(post("{\"goodsId\":78}", token).statusCode()).isEqualTo(202);
        HttpResponse<String> third = post("{\"goodsId\":78}", token);
        assertThat(third.statusCode()).isEqualTo(429);
        assertThat(third.headers().firstValue("Retry-After"))
                .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
        assertThat(third.body()).contains("rate limited (user)");
        assertThat(post("{\"goodsId\":78}", valid(users.incrementAndGet())).statusCode())
                .as("another buyer is not limited")
                .isEqualTo(202);
    }

    @Test
    void requestsOutsideAKnownWindowAreRejectedAtTheDoor() throws Exception {
        RedisKeys keys = new RedisKeys(redisPrefix);
        long now = System.currentTimeMillis();
        try (RedisClient redis = RedisClient.create(
                URI.create(System.getenv().getOrDefault("SECKILL_REDIS_URL", "redis://127.0.0.1:6379")))) {
            redis.hset(
                    keys.sale(501),
                    Map.of(
                            "startAt",
                            Long.toString(now + 3_600_000),
                            "endAt",
                            Long.toString(now + 7_200_000),
                            "perUserLimit",
                            "1",
                            "status",
                            "open"));
            redis.hset(
                    keys.sale(502),
                    Map.of(
                            "startAt",
                            Long.toString(now - 7_200_000),
                            "endAt",
                            Long.toString(now - 3_600_000),
                            "perUserLimit",
                            "1",
                            "status",
                            "open"));
            redis.expire(keys.sale(501), 60);
            redis.expire(keys.sale(502), 60);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                HttpResponse<String> r = post("{\"goodsId\":501}", valid(users.incrementAndGet()));
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).contains("\"status\":\"REJECTED\"", "\"reason\":\"not_started\"");
            });
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(post("{\"goodsId\":502}", valid(users.incrementAndGet()))
                                    .body())
                            .contains("\"reason\":\"ended\""));
            assertThat(post("{\"goodsId\":503}", valid(users.incrementAndGet())).statusCode())
                    .as("no sale known: the stream decides")
                    .isEqualTo(202);
        }
    }

    static HttpResponse<String> pay(int port, long orderId, String body, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/api/orders/" + orderId + "/pay"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) b.header("Authorization", authorization);
        return GatewayTest.http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static List<String> paymentsIn() {
        return GatewayTest.commandsIn(KafkaFixture.bootstrap(), prefix + "payments").stream()
                .map(r -> r.key() + "=" + new String(r.value(), StandardCharsets.UTF_8))
                .toList();
    }

    @Test
    void aBuyersTokenCannotReportAPayment_onlyThePaymentProvidersCredentialCan() throws Exception {
        long buyer = users.incrementAndGet();
        HttpResponse<String> byBuyer =
                pay(gateway.port(), 9101, "{\"paymentId\":\"buyer-pays-9101\"}", "Bearer " + valid(buyer));
        assertThat(byBuyer.statusCode()).isEqualTo(403);
        assertThat(byBuyer.body()).contains("only the payment provider may report payments");
        HttpResponse<String> none = pay(gateway.port(), 9102, "{\"paymentId\":\"nobody-pays-9102\"}", null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        HttpResponse<String> almost = pay(
                gateway.port(),
                9103,
                "{\"paymentId\":\"almost-9103\"}",
                "Bearer " + PAYMENT_SECRET.substring(0, PAYMENT_SECRET.length() - 1) + "X");
        assertThat(almost.statusCode()).isEqualTo(403);

        HttpResponse<String> provider =
                pay(gateway.port(), 9104, "{\"paymentId\":\"provider-9104\"}", "Bearer " + PAYMENT_SECRET);
        assertThat(provider.statusCode()).isEqualTo(202);
        assertThat(provider.body()).contains("\"paymentId\":\"provider-9104\"", "\"orderId\":9104");
        List<String> payments = paymentsIn();
        assertThat(payments).anyMatch(p -> p.startsWith("9104=") && p.contains("provider-9104"));
        assertThat(payments)
                .as("refused calls never reach the payments topic")
                .noneMatch(p ->
                        p.contains("buyer-pays-9101") || p.contains("nobody-pays-9102") || p.contains("almost-9103"));
    }

    @Test
    void aPaymentThatNamesNoUsablePaymentIdIs400NamingTheField_noneIsMadeUp() throws Exception {
        // a made-up paymentId would turn the provider's retry of the same payment into a second payment
        List<String> bodies = List.of(
                "",
                "{}",
                "{\"paymentId\":null}",
                "{\"paymentId\":\"\"}",
                "{\"paymentId\":\"   \"}",
                "{\"paymentId\":42}",
                "{\"paymentId\":[\"p-1\"]}",
                "{\"paymentId\":\"has space\"}",
                "{\"paymentId\":\"" + "p".repeat(65) + "\"}",
                "[\"p-1\"]");
        long order = 9110;
        for (String body : bodies) {
            HttpResponse<String> r = pay(gateway.port(), ++order, body, "Bearer " + PAYMENT_SECRET);
            assertThat(r.statusCode()).as(body).isEqualTo(400);
            JsonObject answer = new JsonObject(r.body());
            assertThat(answer.getString("field")).as(body).isEqualTo("paymentId");
            assertThat(answer.getString("detail")).as(body).contains("paymentId is required");
        }
        HttpResponse<String> named =
                pay(gateway.port(), 9130, "{\"paymentId\":\"psp-9130.a:1\"}", "Bearer " + PAYMENT_SECRET);
        assertThat(named.statusCode()).isEqualTo(202);
        List<String> payments = paymentsIn();
        assertThat(payments).anyMatch(p -> p.startsWith("9130=") && p.contains("psp-9130.a:1"));
        long last = order;
        assertThat(payments)
                .as("no payment reaches the topic without the provider's own paymentId")
                .noneMatch(p -> {
                    long key = Long.parseLong(p.substring(0, p.indexOf('=')));
                    return key > 9110 && key <= last;
                });
    }

    @Test
    void thePaymentCredentialMustBeLongAndNotTheBuyersSecret() {
        Assertions.assertThatThrownBy(
                        () -> PaymentRoute.credential(Settings.with(Map.of("gateway.payment.secret", "too-short"))))
                .hasMessageContaining("SECKILL_GATEWAY_PAYMENT_SECRET is too short (9 characters, 32 needed)");
        Assertions.assertThatThrownBy(() -> PaymentRoute.credential(
                        Settings.with(Map.of("gateway.payment.secret", SECRET, "gateway.auth.secret", SECRET))))
                .hasMessageContaining("must differ");
        assertThat(PaymentRoute.credential(Settings.with(Map.of())))
                .as("none configured: the endpoint is off")
                .isNull();
    }

    static HttpResponse<String> status(String requestId, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.port() + "/api/purchases/" + requestId));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return GatewayTest.http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** An outcome as stock-stream writes it, on the real outcome topic the gateway follows. */
    static void decided(String requestId, long goodsId, long userId) throws Exception {
        decided(requestId, goodsId, userId, OutcomeKind.SUCCESS, 4);
    }

    static void decided(String requestId, long goodsId, long userId, OutcomeKind kind, long stockAfter)
            throws Exception {
        Outcome o =
                Outcome.of(requestId, goodsId, userId, 1, kind, null, stockAfter, Instant.now(), Instant.now(), 0, 0);
        try (var producer = new KafkaProducer<String, byte[]>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaFixture.bootstrap()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(new Topics(prefix).outcome(kind), Long.toString(goodsId), Json.write(o)))
                    .get();
        }
    }

    /**
     * Given a buyer whose purchase took the last unit (decided SUCCESS, stock 0) without this gateway having
     * acknowledged it (a 503 UNKNOWN, or another instance took it), when the buyer retries with its requestId while
     * the goods is marked sold out, then the door does not answer SOLD_OUT: the buyer gets its SUCCESS, as the stream
     * would answer the retry; a requestId nobody decided is still answered SOLD_OUT at the door.
     */
    @Test
    void aRetryOfThePurchaseThatTookTheLastUnitGetsItsSuccess_notTheDoorsSoldOut() throws Exception {
        long goods = 9401;
        long owner = users.incrementAndGet();
        String id = "door-last-" + UUID.randomUUID().toString().substring(0, 8);
        decided(id, goods, owner, OutcomeKind.SUCCESS, 0);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(status(id, valid(owner)).body()).contains("\"status\":\"SUCCESS\""));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            long probe = users.incrementAndGet();
            assertThat(post("{\"goodsId\":" + goods + "}", valid(probe)).body())
                    .as("the door knows the goods is sold out")
                    .contains("\"status\":\"SOLD_OUT\"");
        });

        HttpResponse<String> retry = GatewayTest.post(
                gateway.port(),
                "{\"goodsId\":" + goods + ",\"requestId\":\"" + id + "\"}",
                "Authorization",
                "Bearer " + valid(owner),
                "Prefer",
                "wait=2");
        assertThat(retry.statusCode()).isEqualTo(200);
        assertThat(new JsonObject(retry.body()).getString("status")).isEqualTo("SUCCESS");

        long other = users.incrementAndGet();
        String fresh = "door-fresh-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> unknown =
                post("{\"goodsId\":" + goods + ",\"requestId\":\"" + fresh + "\"}", valid(other));
        assertThat(unknown.statusCode()).isEqualTo(200);
        assertThat(new JsonObject(unknown.body()).getString("status")).isEqualTo("SOLD_OUT");
    }

    @Test
    void aPurchasesOutcomeIsTheOwnersOnly_anotherBuyerGets404_withoutATokenNoUserIdIsShown() throws Exception {
        long owner = users.incrementAndGet();
        long other = users.incrementAndGet();
        String id = "door-status-" + UUID.randomUUID().toString().substring(0, 8);
        decided(id, 9201, owner);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(status(id, valid(owner)).body()).contains("\"status\":\"SUCCESS\""));
        HttpResponse<String> mine = status(id, valid(owner));
        assertThat(mine.statusCode()).isEqualTo(200);
        assertThat(new JsonObject(mine.body()).getLong("userId")).isEqualTo(owner);

        HttpResponse<String> theirs = status(id, valid(other));
        assertThat(theirs.statusCode()).isEqualTo(404);
        assertThat(theirs.body()).doesNotContain("userId", Long.toString(owner), "SUCCESS", "9201");

        HttpResponse<String> anonymous = status(id, null);
        assertThat(anonymous.statusCode()).isEqualTo(200);
        JsonObject redacted = new JsonObject(anonymous.body());
        assertThat(redacted.getString("status")).isEqualTo("SUCCESS");
        assertThat(redacted.fieldNames()).doesNotContain("userId", "goodsId", "quantity", "stockAfter");

        assertThat(status(id, "not-a-jwt").statusCode())
                .as("a bad token is refused, not treated as none")
                .isEqualTo(401);
    }

    @Test
    void anotherBuyerReusingAnAcceptedRequestIdIs409_theOwnersRetryStill202() throws Exception {
        long owner = users.incrementAndGet();
        long other = users.incrementAndGet();
        String id = "door-reuse-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(post("{\"goodsId\":9301,\"requestId\":\"" + id + "\"}", valid(owner))
                        .statusCode())
                .isEqualTo(202);
        HttpResponse<String> reused = post("{\"goodsId\":9301,\"requestId\":\"" + id + "\"}", valid(other));
        assertThat(reused.statusCode()).isEqualTo(409);
        JsonObject body = new JsonObject(reused.body());
        assertThat(body.getString("requestId")).isEqualTo(id);
        assertThat(body.getString("field")).isEqualTo("requestId");
        assertThat(body.encode()).doesNotContain(Long.toString(owner));
        assertThat(post("{\"goodsId\":9301,\"requestId\":\"" + id + "\"}", valid(owner))
                        .statusCode())
                .as("the owner's retry")
                .isEqualTo(202);
        assertThat(status(id, valid(other)).statusCode())
                .as("nor can the other buyer read it while pending")
                .isEqualTo(404);

        var sent = GatewayTest.commandsIn(KafkaFixture.bootstrap(), prefix + "commands").stream()
                .map(c -> CommandCodec.decode(c.value()))
                .filter(p -> p instanceof ParsedCommand.Valid)
                .map(p -> (Purchase) ((ParsedCommand.Valid) p).command())
                .filter(p -> p.requestId().equals(id))
                .toList();
        assertThat(sent).singleElement().extracting(Purchase::userId).isEqualTo(owner);
    }
}
