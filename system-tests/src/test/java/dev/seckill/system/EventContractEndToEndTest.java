package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.schema.ContractSchemas;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.reconcile.LedgerReader;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;

/**
 * The published event contract (docs/contracts.md, the JSON Schemas in the contracts jar) against what the running
 * system really writes: a small sale over the real stack (Kafka, Redis, MariaDB/MySQL; gateway, stock-stream,
 * order-writer) that makes every kind of event — each outcome and REJECTED reason, each ledger type, a payment, a DLQ
 * record — and then every record on the commands, outcome, ledger, payments and DLQ topics is validated against its
 * schema. The example consumer of docs/examples is compiled against kafka-clients and Jackson only and run on the
 * same topics. The namespace's topics, consumer groups, Redis keys and database are removed afterwards.
 */
class EventContractEndToEndTest {
    static final long GOODS = 3101;
    static final long NO_SALE_GOODS = 3102;
    static final byte[] POISON = "{\"type\":\"purchase\",oops".getBytes(StandardCharsets.UTF_8);
    static final byte[] INVALID = ("{\"v\":1,\"type\":\"purchase\",\"requestId\":\"c-invalid\",\"goodsId\":" + GOODS
                    + ",\"userId\":30,\"quantity\":0,\"acceptedAt\":\"2026-11-29T10:00:00Z\"}")
            .getBytes(StandardCharsets.UTF_8);

    static Pipeline pipeline;
    static Namespace ns;
    static OutcomeLog log;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        Settings settings = TestNamespaces.inProcess(2);
        pipeline = new Pipeline(TestNamespaces.create(
                        settings, "contract-" + UUID.randomUUID().toString().substring(0, 8)))
                .start();
        ns = pipeline.namespace();
        log = new OutcomeLog(ns.settings(), pipeline.topics());
    }

    @AfterAll
    static void cleanUp() throws Exception {
        if (log != null) log.close();
        if (pipeline != null) pipeline.close();
        if (ns == null) return;
        String prefix = ns.settings().topicPrefix();
        try (Admin admin = Admin.create(
                Map.<String, Object>of("bootstrap.servers", ns.settings().kafkaBootstrap()))) {
            // the namespace's consumer groups: a closed Streams member stays in its group until its session times out
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(2))
                    .ignoreExceptions()
                    .untilAsserted(() -> {
                        List<String> groups = new ArrayList<>();
                        admin.listGroups().all().get().forEach(g -> {
                            if (g.groupId().startsWith(prefix)) groups.add(g.groupId());
                        });
                        if (!groups.isEmpty())
                            admin.deleteConsumerGroups(groups).all().get();
                    });
        }
        ns.deleteTopics();
        ns.dropDatabase();
        try (UnifiedJedis redis = RedisConnections.open(ns.settings())) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                var page = redis.scan(
                        cursor,
                        new ScanParams()
                                .match(ns.settings().redisPrefix() + "*")
                                .count(1000));
                if (!page.getResult().isEmpty()) redis.del(page.getResult().toArray(String[]::new));
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            assertThat(redis.scan(
                                    ScanParams.SCAN_POINTER_START,
                                    new ScanParams().match(ns.settings().redisPrefix() + "*"))
                            .getResult())
                    .as("no Redis key of the namespace left")
                    .isEmpty();
        }
    }

    static HttpResponse<String> post(String path, long user, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + pipeline.gatewayPort() + path))
                        .header("Content-Type", "application/json")
                        // payments come from the payment provider's credential, purchases from the buyer's token
                        .header(
                                "Authorization",
                                path.endsWith("/pay") ? pipeline.paymentProvider() : pipeline.bearer(user))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static void sendRaw(long goods, byte[] value) throws Exception {
        try (var producer = new KafkaProducer<>(
                Map.<String, Object>of("bootstrap.servers", ns.settings().kafkaBootstrap()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(pipeline.topics().commands(), Long.toString(goods), value))
                    .get();
        }
    }

    static long orderOf(String requestId) throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> orderIdOrNull(requestId) != null);
        return orderIdOrNull(requestId);
    }

    static Long orderIdOrNull(String requestId) throws Exception {
        try (Connection c = pipeline.db().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT order_id FROM purchase_order WHERE request_id = ?")) {
            ps.setString(1, requestId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** Every committed record of a topic, from the beginning to its current end. */
    static List<ConsumerRecord<String, byte[]>> records(String topic) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        LedgerReader.readAll(ns.settings(), topic, out::add);
        return out;
    }

    static String text(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }

    @Test
    void everyRecordASmallSaleWritesConformsToThePublishedSchemas_andTheExampleConsumerReadsThem() throws Exception {
        pipeline.openSale(GOODS, 10, Duration.ofHours(1), 1);
        Set<String> purchases = new HashSet<>();
        // 8 buyers through the gateway (traceId from X-Trace-Id), then 12 straight to Kafka: 10 SUCCESS, 10 SOLD_OUT
        for (long user = 1; user <= 8; user++) {
            String id = "c-http-" + user;
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + pipeline.gatewayPort() + "/api/purchases"))
                            .header("Content-Type", "application/json")
                            .header("Authorization", pipeline.bearer(user))
                            .header("X-Trace-Id", "trace-" + id)
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"goodsId\":" + GOODS + ",\"userId\":" + user + ",\"requestId\":\"" + id + "\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            purchases.add(id);
        }
        for (long user = 9; user <= 20; user++) {
            pipeline.send(new Purchase("c-direct-" + user, GOODS, user, 1, Instant.now()));
            purchases.add("c-direct-" + user);
        }
        pipeline.send(new Purchase("c-again-1", GOODS, 1, 1, Instant.now())); // DUPLICATE
        pipeline.send(new Purchase("c-two", GOODS, 21, 2, Instant.now())); // over_limit
        pipeline.send(new Purchase("c-early", GOODS, 22, 1, Instant.now().minus(Duration.ofHours(2)))); // not_started
        pipeline.send(new Purchase("c-nosale", NO_SALE_GOODS, 23, 1, Instant.now())); // no_sale
        sendRaw(GOODS, INVALID); // invalid
        sendRaw(GOODS, POISON); // DLQ
        purchases.addAll(List.of("c-again-1", "c-two", "c-early", "c-nosale", "c-invalid"));

        long paidOrder = orderOf("c-http-2");
        assertThat(post("/api/orders/" + paidOrder + "/pay", 2, "{\"paymentId\":\"c-pay-" + paidOrder + "\"}")
                        .statusCode())
                .isEqualTo(202);
        long releasedOrder = orderOf("c-http-1");
        pipeline.send(new Release(GOODS, 1, 1, releasedOrder, "c-http-1", "cancelled", "c-release-1")); // RELEASED
        pipeline.send(new CloseSale(GOODS, "c-close")); // CLOSED
        pipeline.send(new Purchase("c-late", GOODS, 24, 1, Instant.now())); // ended
        pipeline.send(new Restore(GOODS, "c-restore")); // RESTORED
        purchases.add("c-late");

        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(
                                log.snapshot().stream().map(Outcome::requestId).toList())
                        .containsAll(purchases));
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(records(pipeline.topics().ledger()))
                        .anyMatch(r -> text(r.value()).contains("\"opId\":\"c-restore\"")));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(records(pipeline.topics().dlq())).isNotEmpty());
        // the payment reaches the stream as the order-writer's pay command, decided into a PAID entry
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(records(pipeline.topics().ledger()))
                        .anyMatch(r -> text(r.value()).contains("\"opId\":\"pay-order-" + paidOrder + "\"")));

        // commands: all conform, but for the two this test wrote out of contract on purpose
        int commands = 0;
        for (ConsumerRecord<String, byte[]> r : records(pipeline.topics().commands())) {
            if (Arrays.equals(r.value(), POISON)) {
                assertThatThrownBy(() -> Json.MAPPER.readTree(r.value()))
                        .as("the poison is not even JSON")
                        .isInstanceOf(IOException.class);
            } else if (Arrays.equals(r.value(), INVALID)) {
                assertThat(ContractSchemas.violations("command.json", r.value()))
                        .as("refused: " + text(r.value()))
                        .isNotEmpty();
            } else {
                assertThat(ContractSchemas.violations("command.json", r.value()))
                        .as(text(r.value()))
                        .isEmpty();
            }
            commands++;
        }
        assertThat(commands)
                .as("open + purchases + poison + release + close + restore + pay")
                .isEqualTo(1 + purchases.size() + 1 + 3 + 1);

        // outcomes: every record conforms, on the topic of its kind, keyed by its goodsId
        Map<String, Integer> counts = new TreeMap<>();
        Set<String> reasons = new HashSet<>();
        for (OutcomeKind kind : OutcomeKind.values()) {
            for (ConsumerRecord<String, byte[]> r : records(pipeline.topics().outcome(kind))) {
                assertThat(ContractSchemas.violations("outcome.json", r.value()))
                        .as(text(r.value()))
                        .isEmpty();
                JsonNode o = Json.MAPPER.readTree(r.value());
                assertThat(o.get("outcome").asText()).isEqualTo(kind.name());
                assertThat(r.key()).isEqualTo(o.get("goodsId").asText());
                if (o.get("requestId").asText().startsWith("c-http-")) {
                    assertThat(TraceHeaders.get(r.headers()))
                            .isEqualTo("trace-" + o.get("requestId").asText());
                }
                if (o.has("reason")) reasons.add(o.get("reason").asText());
                counts.merge(
                        kind.name() + (o.has("reason") ? "/" + o.get("reason").asText() : ""), 1, Integer::sum);
            }
        }
        assertThat(counts.keySet()).as("every outcome kind was written").contains("SUCCESS", "SOLD_OUT", "DUPLICATE");
        assertThat(reasons).containsExactlyInAnyOrder("not_started", "ended", "no_sale", "over_limit", "invalid");
        assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(purchases.size());

        // ledger: every entry conforms, every type was written
        Set<String> types = new HashSet<>();
        for (ConsumerRecord<String, byte[]> r : records(pipeline.topics().ledger())) {
            assertThat(ContractSchemas.violations(ContractSchemas.ledgerSchemaOf(r.value()), r.value()))
                    .as(text(r.value()))
                    .isEmpty();
            JsonNode e = Json.MAPPER.readTree(r.value());
            assertThat(r.key()).isEqualTo(e.get("goodsId").asText());
            types.add(e.get("type").asText());
        }
        assertThat(types).containsExactlyInAnyOrder("OPENED", "DEDUCTED", "RELEASED", "CLOSED", "RESTORED", "PAID");

        // payments: the gateway's record conforms, keyed by its orderId
        List<ConsumerRecord<String, byte[]>> payments =
                records(pipeline.topics().payments());
        assertThat(payments).hasSize(1);
        assertThat(ContractSchemas.violations("payment.json", payments.get(0).value()))
                .isEmpty();
        assertThat(payments.get(0).key()).isEqualTo(Long.toString(paidOrder));

        // DLQ: the poisoned record byte for byte, with the four headers of the contract
        List<ConsumerRecord<String, byte[]>> dlq = records(pipeline.topics().dlq());
        assertThat(dlq).hasSize(1);
        ObjectNode headers = Json.MAPPER.createObjectNode();
        for (Header h : dlq.get(0).headers()) headers.put(h.key(), text(h.value()));
        assertThat(ContractSchemas.violations("dlq-headers.json", Json.write(headers)))
                .as(headers.toString())
                .isEmpty();
        assertThat(dlq.get(0).value()).isEqualTo(POISON);
        assertThat(dlq.get(0).key()).isEqualTo(Long.toString(GOODS));
        assertThat(headers.get("source-topic").asText())
                .isEqualTo(pipeline.topics().commands());

        // the independent example consumer, compiled against kafka-clients and Jackson only, counts the same outcomes
        assertThat(runExampleConsumer()).contains("outcomes: " + counts);
    }

    /** The example consumer of docs/examples, as an outsider runs it. */
    static String runExampleConsumer() throws Exception {
        return Examples.runJava(
                "OutcomeConsumer",
                ns.settings().kafkaBootstrap(),
                ns.settings().topicPrefix(),
                ns.settings().topicPrefix() + "outcome-example",
                "10");
    }
}
