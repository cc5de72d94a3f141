package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaBroker;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.TestTopics;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The gateway over a real broker: 202 means the command is in the log; bad input never reaches Kafka. */
class GatewayTest {
    static GatewayApp gateway;
    static Topics topics;
    static Settings settings;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        settings = TestGateways.authOff("gw");
        topics = new Topics(settings.topicPrefix());
        gateway = TestGateways.started(settings);
    }

    @AfterAll
    static void stop() {
        gateway.close();
        TestGateways.removeNamespace(settings);
    }

    static HttpResponse<String> post(int port, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/purchases"))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Every record of the topic up to its end offsets (not what arrived within a fixed time). */
    static List<ConsumerRecord<String, byte[]>> commandsIn(String bootstrap, String topic) {
        return TestTopics.readToEnd(bootstrap, topic);
    }

    @Test
    void a202MeansTheCommandIsInTheTopic_keyedByGoods_withTheTraceId() throws Exception {
        HttpResponse<String> r = post(
                gateway.port(),
                "{\"goodsId\":1001,\"userId\":42,\"quantity\":1,\"requestId\":\"gw-r1\"}",
                "traceparent",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assertThat(r.statusCode()).isEqualTo(202);
        assertThat(r.body()).contains("\"requestId\":\"gw-r1\"", "\"status\":\"PENDING\"");
        HttpResponse<String> retry =
                post(gateway.port(), "{\"goodsId\":1001,\"userId\":42,\"quantity\":1,\"requestId\":\"gw-r1\"}");
        assertThat(retry.statusCode()).isEqualTo(202);

        List<ConsumerRecord<String, byte[]>> records = commandsIn(settings.kafkaBootstrap(), topics.commands()).stream()
                .filter(c -> new String(c.value()).contains("gw-r1"))
                .toList();
        assertThat(records).as("a retry at the door is not a second command").hasSize(1);
        assertThat(records.get(0).key()).isEqualTo("1001");
        assertThat(TraceHeaders.get(records.get(0).headers())).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        ParsedCommand parsed = CommandCodec.decode(records.get(0).value());
        assertThat(parsed).isInstanceOf(ParsedCommand.Valid.class);
        Purchase p = (Purchase) ((ParsedCommand.Valid) parsed).command();
        assertThat(p.userId()).isEqualTo(42);
        assertThat(p.acceptedAt()).isNotNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "empty body                 | ''                                                             | body",
                "not JSON                   | {goodsId:1                                                     | body",
                "JSON array                 | [1,2]                                                          | body",
                "missing goodsId            | {\"userId\":1}                                                 | goodsId",
                "negative goodsId           | {\"goodsId\":-5,\"userId\":1}                                  | goodsId",
                "zero goodsId               | {\"goodsId\":0,\"userId\":1}                                   | goodsId",
                "string goodsId             | {\"goodsId\":\"abc\",\"userId\":1}                             | goodsId",
                "fractional goodsId         | {\"goodsId\":1.5,\"userId\":1}                                 | goodsId",
                "huge goodsId               | {\"goodsId\":123456789012345678901234567890,\"userId\":1}      | goodsId",
                "missing userId             | {\"goodsId\":1}                                                | userId",
                "negative userId            | {\"goodsId\":1,\"userId\":-1}                                  | userId",
                "quantity zero              | {\"goodsId\":1,\"userId\":1,\"quantity\":0}                    | quantity",
                "quantity too big           | {\"goodsId\":1,\"userId\":1,\"quantity\":101}                  | quantity",
                "quantity as text           | {\"goodsId\":1,\"userId\":1,\"quantity\":\"2\"}                | quantity",
                "requestId with spaces      | {\"goodsId\":1,\"userId\":1,\"requestId\":\"a b\"}             | requestId",
                "requestId too long         | {\"goodsId\":1,\"userId\":1,\"requestId\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"} | requestId",
                "requestId not a string     | {\"goodsId\":1,\"userId\":1,\"requestId\":17}                  | requestId"
            })
    void badInputIs400NamingTheField_andNeverReachesKafka(String name, String body, String field) throws Exception {
        HttpResponse<String> r = post(gateway.port(), body);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("\"field\":\"" + field + "\"");
        assertThat(r.body()).contains(field.equals("body") ? "body" : field);
    }

    @Test
    void anOversizedBodyIs400() throws Exception {
        HttpResponse<String> r =
                post(gateway.port(), "{\"goodsId\":1,\"userId\":1,\"pad\":\"" + "x".repeat(10_000) + "\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("\"field\":\"body\"");
    }

    @Test
    void withoutAPaymentCredentialThePayEndpointIsOff_evenWithAuthOff() throws Exception {
        HttpResponse<String> r =
                GatewayDoorTest.pay(gateway.port(), 77, "{\"paymentId\":\"p-77\"}", "Bearer anything-at-all");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).contains("SECKILL_GATEWAY_PAYMENT_SECRET");
        // a later payment written straight to the topic: the read below reached past the refused call
        try (var producer = new KafkaProducer<String, String>(
                Map.of("bootstrap.servers", settings.kafkaBootstrap(), "acks", "all"),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topics.payments(), "78", "{\"paymentId\":\"p-78-later\"}"))
                    .get();
        }
        assertThat(commandsIn(settings.kafkaBootstrap(), topics.payments()))
                .anyMatch(c -> new String(c.value()).contains("p-78-later"))
                .noneMatch(c -> new String(c.value()).contains("p-77"));
    }

    static long filesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) return 0;
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void aMultipartUploadIsRefusedWith415_andLeavesNoFile() throws Exception {
        // Vert.x's default upload directory, relative to the working directory: where the default BodyHandler wrote
        // uploads
        Path uploads = Path.of("file-uploads").toAbsolutePath();
        long before = filesUnder(uploads);
        String boundary = "----seckill" + UUID.randomUUID().toString().replace("-", "");
        String multipart = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"goodsId\"\r\n\r\n1\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n" + "x".repeat(2000) + "\r\n--" + boundary + "--\r\n";
        for (String path : List.of("/api/purchases", "/api/orders/1/pay")) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                            .timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.ofString(multipart))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(415);
            assertThat(r.body()).as(path).contains("must be JSON", "\"field\":\"body\"");
        }
        HttpResponse<String> form = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/purchases"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("goodsId=1&userId=1"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(form.statusCode()).isEqualTo(415);
        assertThat(filesUnder(uploads))
                .as("no upload was written to " + uploads)
                .isEqualTo(before);
        assertThat(post(gateway.port(), "{\"goodsId\":1,\"userId\":1}").statusCode())
                .as("JSON still goes through")
                .isEqualTo(202);
    }

    @Test
    void rejectedInputNeverReachedKafka() throws Exception {
        String marker = "marker-" + UUID.randomUUID().toString().substring(0, 6);
        assertThat(post(gateway.port(), "{\"goodsId\":1,\"userId\":-1,\"requestId\":\"" + marker + "\"}")
                        .statusCode())
                .isEqualTo(400);
        String later = marker + "-later";
        assertThat(post(gateway.port(), "{\"goodsId\":1,\"userId\":1,\"requestId\":\"" + later + "\"}")
                        .statusCode())
                .as("a valid purchase after it")
                .isEqualTo(202);
        assertThat(commandsIn(settings.kafkaBootstrap(), topics.commands()))
                .as("read past the later purchase, and the rejected one is not there")
                .anyMatch(c -> new String(c.value()).contains("\"" + later + "\""))
                .noneMatch(c -> new String(c.value()).contains("\"" + marker + "\""));
    }

    @Test
    void metricsAndHealthAnswer() throws Exception {
        post(gateway.port(), "{\"goodsId\":1}");
        HttpResponse<String> m = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.metricsPort() + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(m.body())
                .contains("seckill_gateway_requests_total", "seckill_gateway_accept_latency_seconds_bucket");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            HttpResponse<String> h = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/health"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(h.statusCode()).isEqualTo(200);
            assertThat(h.body()).contains("\"kafka\":\"UP\"");
        });
        HttpResponse<String> live = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/live"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(live.statusCode() + " " + live.body()).isEqualTo("200 {\"status\":\"ALIVE\"}");
    }

    @Test
    void
            withTheBrokerStopped_requestsGet503InTime_carryingTheirRequestIdAndRetryAfter_nothingIsAcknowledged_thenFlowAgain()
                    throws Exception {
        KafkaBroker broker = KafkaBroker.onFreePorts().start();
        String prefix = "gwdown-" + UUID.randomUUID().toString().substring(0, 6) + ".";
        Settings s = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                broker.bootstrap(),
                Settings.TOPIC_PREFIX,
                prefix,
                Settings.REDIS_PREFIX,
                prefix.replace('.', ':'),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "gateway.kafka.timeout.ms",
                "2000",
                "gateway.auth.enabled",
                "false"));
        GatewayApp own = TestGateways.started(s);
        try {
            assertThat(post(own.port(), "{\"goodsId\":7,\"userId\":1,\"requestId\":\"before\"}")
                            .statusCode())
                    .isEqualTo(202);
            broker.stop();
            long t0 = System.nanoTime();
            HttpResponse<String> down = post(own.port(), "{\"goodsId\":7,\"userId\":2,\"requestId\":\"during\"}");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(ms)
                    .as("answered within the configured timeout plus slack")
                    .isLessThan(5000);
            assertThat(new JsonObject(down.body()).getString("requestId"))
                    .as("the client's requestId")
                    .isEqualTo("during");
            assertThat(down.headers().firstValue("Retry-After"))
                    .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
            // no requestId from the client: the 503 names the one the gateway made, since a timed-out send may have
            // been appended
            HttpResponse<String> generated = post(own.port(), "{\"goodsId\":7,\"userId\":4}");
            assertThat(generated.statusCode()).isEqualTo(503);
            assertThat(generated.headers().firstValue("Retry-After")).isPresent();
            String gatewayId = new JsonObject(generated.body()).getString("requestId");
            assertThat(gatewayId).as(generated.body()).isNotNull();
            assertThat(gatewayId).as("an id the gateway issued and signed").matches("g-[0-9a-f]{43}");
            broker.start();
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () -> assertThat(post(own.port(), "{\"goodsId\":7,\"userId\":3,\"requestId\":\"after\"}")
                                            .statusCode())
                                    .isEqualTo(202));
            HttpResponse<String> retried =
                    post(own.port(), "{\"goodsId\":7,\"userId\":4,\"requestId\":\"" + gatewayId + "\"}");
            assertThat(retried.statusCode())
                    .as("the buyer retries with the id the 503 gave")
                    .isEqualTo(202);
            assertThat(retried.body()).contains(gatewayId);
            List<String> values = commandsIn(broker.bootstrap(), prefix + "commands").stream()
                    .map(c -> new String(c.value()))
                    .toList();
            assertThat(values)
                    .anyMatch(v -> v.contains("\"before\""))
                    .anyMatch(v -> v.contains("\"after\""))
                    .anyMatch(v -> v.contains(gatewayId));
            assertThat(values).noneMatch(v -> v.contains("\"during\""));
        } finally {
            own.close();
            broker.stop();
            TestGateways.removeRedisKeys(s);
        }
    }

    @Test
    void gracefulShutdownLosesNothingItAcknowledged() throws Exception {
        String prefix = "gwstop-" + UUID.randomUUID().toString().substring(0, 6) + ".";
        Settings s = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                prefix,
                Settings.REDIS_PREFIX,
                prefix.replace('.', ':'),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "gateway.auth.enabled",
                "false",
                "gateway.limit.user.per.second",
                "1000"));
        GatewayApp own = TestGateways.started(s);
        int port = own.port();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        List<Future<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String body =
                    "{\"goodsId\":" + (1 + i % 7) + ",\"userId\":" + (i + 1) + ",\"requestId\":\"stop-" + i + "\"}";
            calls.add(clients.submit(() -> post(port, body)));
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> calls.stream().filter(Future::isDone).count() >= 50);
        own.close(); // mid-flight: stop accepting, flush the producer, exit
        List<String> acknowledged = new ArrayList<>();
        for (var call : calls) {
            try {
                HttpResponse<String> r = call.get();
                if (r.statusCode() == 202)
                    acknowledged.add(r.body().replaceAll(".*\"requestId\":\"([^\"]+)\".*", "$1"));
            } catch (ExecutionException e) {
                // refused connection after the stop: never acknowledged
            }
        }
        clients.shutdown();
        assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(50);
        Set<String> inLog = new HashSet<>();
        commandsIn(KafkaFixture.bootstrap(), prefix + "commands")
                .forEach(c -> inLog.add(new String(c.value()).replaceAll(".*\"requestId\":\"([^\"]+)\".*", "$1")));
        assertThat(inLog).containsAll(acknowledged);
        TestGateways.removeNamespace(s);
    }
}
