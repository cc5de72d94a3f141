package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.kit.config.Settings;
import dev.seckill.reconcile.LedgerReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole pipeline over a real Kafka broker, the real Redis and the real MySQL-compatible server: a small sale
 * with many more requests than stock and repeat buyers. Asserts invariants 1, 2, 3 and 5 (and 4) of docs/invariants.md.
 */
class FlashSaleEndToEndTest {
    static Pipeline pipeline;
    static OutcomeLog log;

    @BeforeAll
    static void start() {
        Settings settings = TestNamespaces.inProcess(4);
        Namespace ns = TestNamespaces.create(
                settings, "e2e-" + UUID.randomUUID().toString().substring(0, 8));
        pipeline = new Pipeline(ns).start();
        log = new OutcomeLog(ns.settings(), pipeline.topics());
    }

    @AfterAll
    static void stop() {
        if (log != null) log.close();
        if (pipeline != null) pipeline.close();
    }

    @Test
    void givenTwentyUnits_whenSixHundredRequestsFromRepeatBuyersArrive_thenTwentyOrdersAndEveryInvariantHolds()
            throws Exception {
        long goods = 3001;
        pipeline.openSale(goods, 20, Duration.ofHours(1), 1);

        HttpLoad.Result load = HttpLoad.run(
                LoadSpec.closed(pipeline.gatewayPort(), goods, 600, 50, 150, 42, pipeline::bearer)
                        .keepingIds(),
                n -> {});

        assertThat(load.errors()).isZero();
        assertThat(load.acceptedIds()).isNotEmpty();
        assertThat(Drain.await(pipeline, log, goods, load.acceptedIds(), Duration.ofSeconds(90), n -> {}))
                .isTrue();
        SaleAudit audit = SaleAudit.of(pipeline, goods, load.acceptedIds(), log.snapshot());
        assertThat(audit.violations).isEmpty();
        assertThat(audit.outcomesByKind.get(OutcomeKind.SUCCESS))
                .as("demand exceeds stock: all 20 sold")
                .isEqualTo(20);
        assertThat(audit.ordersInDb).isEqualTo(20);
        assertThat(audit.redisStock).isZero();
        assertThat(audit.dbStock).isZero();
        List<Outcome> successes = log.snapshot().stream()
                .filter(o -> o.goodsId() == goods && o.outcome() == OutcomeKind.SUCCESS)
                .toList();
        assertThat(successes).extracting(Outcome::userId).doesNotHaveDuplicates();
        long repeatAttempts = load.requests() - 150;
        assertThat(repeatAttempts).as("the population forces repeat buyers").isPositive();
    }

    @Test
    void upstreamRetriesOfOneRequestIdGetExactlyOneOutcome_andPoisonGoesToTheDlqWhileTheSaleGoesOn() throws Exception {
        long goods = 3002;
        pipeline.openSale(goods, 5, Duration.ofHours(1), 1);
        Set<String> sent = new HashSet<>();
        for (int user = 1; user <= 8; user++) {
            Purchase p = new Purchase("retry-" + user, goods, user, 1, Instant.now());
            pipeline.send(p);
            pipeline.send(p); // the upstream service retried after a lost ack
            sent.add(p.requestId());
        }
        try (var producer = new KafkaProducer<String, String>(
                Map.of("bootstrap.servers", pipeline.namespace().settings().kafkaBootstrap()),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(
                            pipeline.topics().commands(), Long.toString(goods), "{\"type\":\"purchase\",oops"))
                    .get();
        }
        pipeline.send(new Purchase("after-poison", goods, 99, 1, Instant.now()));
        sent.add("after-poison");

        assertThat(Drain.await(pipeline, log, goods, sent, Duration.ofSeconds(60), n -> {}))
                .isTrue();
        SaleAudit audit = SaleAudit.of(pipeline, goods, sent, log.snapshot());
        assertThat(audit.violations).isEmpty();
        assertThat(audit.outcomesByKind.get(OutcomeKind.SUCCESS)).isEqualTo(5);
        assertThat(audit.outcomesByKind.get(OutcomeKind.SOLD_OUT)).isEqualTo(4);
        List<String> dlqErrors = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            dlqErrors.clear();
            LedgerReader.readAll(
                    pipeline.namespace().settings(),
                    pipeline.topics().dlq(),
                    r -> dlqErrors.add(
                            new String(r.headers().lastHeader("error").value(), StandardCharsets.UTF_8)));
            assertThat(dlqErrors).anySatisfy(e -> assertThat(e).startsWith("malformed JSON"));
        });
    }

    @Test
    void theTraceIdTravelsFromTheGatewayToTheOrderRow() throws Exception {
        long goods = 3003;
        pipeline.openSale(goods, 3, Duration.ofHours(1), 1);
        var client = HttpClient.newHttpClient();
        var request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + pipeline.gatewayPort() + "/api/purchases"))
                .header("Content-Type", "application/json")
                .header("X-Trace-Id", "trace-e2e-3003")
                .header("Authorization", pipeline.bearer(7))
                .POST(HttpRequest.BodyPublishers.ofString("{\"goodsId\":3003,\"userId\":7,\"requestId\":\"traced-1\"}"))
                .build();
        var response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(Json.MAPPER.readTree(response.body()).get("requestId").asText())
                .isEqualTo("traced-1");

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            try (Connection c = pipeline.db().getConnection();
                    ResultSet rs = c.createStatement()
                            .executeQuery("SELECT trace_id FROM purchase_order WHERE request_id = 'traced-1'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("trace-e2e-3003");
            }
        });
        var status = client.send(
                HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + pipeline.gatewayPort() + "/api/purchases/traced-1"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(Json.MAPPER.readTree(status.body()).get("status").asText()).isEqualTo("SUCCESS");
    }

    static HttpResponse<String> buyOverHttp(long goods, long user) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + pipeline.gatewayPort() + "/api/purchases"))
                                .header("Content-Type", "application/json")
                                .header("Authorization", pipeline.bearer(user))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"goodsId\":" + goods + "}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theSoldOutGateAnswersAtTheDoor_andClearsWhenAReleaseMakesStockAvailable() throws Exception {
        long goods = 3004;
        pipeline.openSale(goods, 1, Duration.ofHours(1), 1);
        assertThat(buyOverHttp(goods, 1).statusCode()).isEqualTo(202);
        // buyers keep coming until the gateway has seen the SOLD_OUT outcome and answers at the door
        AtomicLong user = new AtomicLong(100);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                buyOverHttp(goods, user.incrementAndGet()).body())
                        .contains("\"status\":\"SOLD_OUT\""));

        String holder;
        try (Connection c = pipeline.db().getConnection()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                try (ResultSet rs = c.createStatement()
                        .executeQuery("SELECT COUNT(*) FROM purchase_order WHERE goods_id = " + goods)) {
                    rs.next();
                    return rs.getInt(1) == 1;
                }
            });
            try (ResultSet rs = c.createStatement()
                    .executeQuery("SELECT request_id FROM purchase_order WHERE goods_id = " + goods)) {
                rs.next();
                holder = rs.getString(1);
            }
        }
        pipeline.send(new Release(goods, 1, 1, null, holder, "cancelled", "e2e-release-" + goods));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            var r = buyOverHttp(goods, 999);
            assertThat(r.statusCode())
                    .as("the released unit is for sale again: the gate let it through")
                    .isEqualTo(202);
        });
        await().atMost(Duration.ofSeconds(30))
                .until(() -> log.snapshot().stream()
                        .anyMatch(
                                o -> o.goodsId() == goods && o.userId() == 999 && o.outcome() == OutcomeKind.SUCCESS));
    }
}
