package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.kit.config.Settings;
import dev.seckill.reconcile.LedgerReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A goods split into 3 buckets through the whole pipeline — stock-stream, order-writer, MySQL — fed a command log
 * written here by hand (JSON strings, not the project's codec): more buyers than units, retries, a requestId reused for
 * another buyer, releases and late buyers. Then every invariant of the sale audit holds for the goods as one pool, every
 * unit is sold (the released ones again), and every SUCCESS has its order.
 */
class BucketedSaleEndToEndTest {
    private static final long GOODS = 5_151;
    static Pipeline pipeline;
    static OutcomeLog log;

    @BeforeAll
    static void start() {
        // no quiet time after a pass found every bucket empty: the released units are borrowed for at once (the
        // bound of docs/invariants.md, "Stock buckets", at T = 0: none unsold while a buyer is turned away)
        Settings settings = TestNamespaces.inProcess(4).and(Map.of("stream.bucket.reborrow.ms", "0"));
        Namespace ns = TestNamespaces.create(
                settings, "buckets-" + UUID.randomUUID().toString().substring(0, 8));
        pipeline = new Pipeline(ns).start();
        log = new OutcomeLog(ns.settings(), pipeline.topics());
    }

    @AfterAll
    static void stop() {
        if (log != null) log.close();
        if (pipeline != null) pipeline.close();
    }

    @Test
    void aGoodsInThreeBucketsSellsEveryUnitOnceWithAnOrderForEachSale() throws Exception {
        Instant start = Instant.now().minusSeconds(5);
        Set<String> ids = new LinkedHashSet<>();
        try (KafkaProducer<String, String> producer = producer()) {
            // Given 24 units opened in 3 buckets
            send(
                    producer,
                    "{\"v\":1,\"type\":\"open_sale\",\"goodsId\":" + GOODS + ",\"stock\":24,\"startAt\":\""
                            + start + "\",\"endAt\":\"" + start.plusSeconds(3600) + "\",\"perUserLimit\":1,"
                            + "\"opId\":\"bk-open\",\"buckets\":3}");
            // When 40 buyers come, 8 of them retrying, and one requestId is reused by another buyer
            for (int u = 1; u <= 40; u++) {
                String body = purchase("bk-" + u, u);
                send(producer, body);
                if (u % 5 == 0) send(producer, body);
                ids.add("bk-" + u);
            }
            send(producer, purchase("bk-7", 777));
            assertThat(Drain.awaitDecided(log, ids, Duration.ofSeconds(90))).isTrue();
            // and 4 of the buyers who got a unit have it released, then 6 late buyers come
            List<Outcome> sold = soldOf(log.snapshot());
            assertThat(sold).hasSize(24);
            for (Outcome o : sold.subList(0, 4))
                send(
                        producer,
                        "{\"v\":1,\"type\":\"release\",\"goodsId\":" + GOODS + ",\"userId\":" + o.userId()
                                + ",\"quantity\":1,\"requestId\":\"" + o.requestId() + "\",\"reason\":\"cancelled\","
                                + "\"opId\":\"bk-rel-" + o.userId() + "\"}");
            for (int u = 101; u <= 106; u++) {
                send(producer, purchase("bk-late-" + u, u));
                ids.add("bk-late-" + u);
            }
        }
        assertThat(Drain.awaitDecided(log, ids, Duration.ofSeconds(90))).isTrue();

        // Then the 4 released units are sold again to late buyers, each requestId has one answer, and the reuse was
        // refused
        List<Outcome> outcomes =
                log.snapshot().stream().filter(o -> o.goodsId() == GOODS).toList();
        Map<String, OutcomeKind> answered = new HashMap<>();
        List<String> twice = new ArrayList<>();
        for (Outcome o : outcomes) {
            OutcomeKind before = answered.put(o.requestId() + "/" + o.userId(), o.outcome());
            if (before != null && before != o.outcome()) twice.add(o.requestId());
        }
        assertThat(twice).as("one answer per requestId").isEmpty();
        assertThat(answered.get("bk-7/777")).isEqualTo(OutcomeKind.REJECTED);
        assertThat(soldOf(outcomes).stream().filter(o -> o.requestId().startsWith("bk-late-")))
                .hasSize(4);
        // every SUCCESS has its order, the units in the DB, the ledger and Redis agree, none oversold
        SaleAudit audit = SaleAudit.of(pipeline, GOODS, ids, log.snapshot());
        assertThat(audit.violations).isEmpty();
        assertThat(audit.opened).isEqualTo(24);
        assertThat(audit.redisStock).isZero();
        assertThat(audit.dbStock).isZero();
        try (Connection c = pipeline.db().getConnection();
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT COUNT(*) FROM purchase_order WHERE goods_id = " + GOODS
                                + " AND live_user_id IS NOT NULL")) {
            rs.next();
            assertThat(rs.getLong(1)).as("a live order for each unit sold").isEqualTo(24);
        }
        List<LedgerEntry> ledger = new ArrayList<>();
        LedgerReader.readAll(pipeline.namespace().settings(), pipeline.topics().ledger(), r -> {
            LedgerEntry e = Json.read(r.value(), LedgerEntry.class);
            if (e.goodsId() == GOODS) ledger.add(e);
        });
        assertThat(ledger).allMatch(e -> e.bucketCount() == 3);
        assertThat(ledger.stream().filter(e -> e.type() == LedgerType.OPENED)).hasSize(3);
    }

    @Test
    void theGatewaySendsEachPurchaseStraightToThePartitionThatClaimsIt() throws Exception {
        long goods = GOODS + 1;
        Instant start = Instant.now().minusSeconds(5);
        double knownBefore = gatewayGauge("seckill_gateway_bucketed_goods");
        try (KafkaProducer<String, String> producer = producer()) {
            // Given 12 units opened in 3 buckets, and the gateway has read the open from the ledger
            producer.send(new ProducerRecord<>(
                            pipeline.topics().commands(),
                            Long.toString(goods),
                            "{\"v\":1,\"type\":\"open_sale\",\"goodsId\":" + goods + ",\"stock\":12,\"startAt\":\""
                                    + start + "\",\"endAt\":\"" + start.plusSeconds(3600) + "\",\"perUserLimit\":1,"
                                    + "\"opId\":\"gw-open\",\"buckets\":3}"))
                    .get();
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> gatewayGauge("seckill_gateway_bucketed_goods") > knownBefore);
        // When 30 buyers buy through the gateway
        Set<String> ids = new LinkedHashSet<>();
        List<Integer> statuses = GatewayHttp.together(30, i -> {
            ids.add("gw-" + i);
            return GatewayHttp.purchase(pipeline, goods, 500 + i, "gw-" + i);
        });
        assertThat(statuses).allMatch(s -> s == 202 || s == 200);
        assertThat(Drain.awaitDecided(log, ids, Duration.ofSeconds(90))).isTrue();
        // Then each purchase record is in the partition its (goods, requestId) claims — Kafka's partitioner on the
        // goods' key for the home, the bucket a murmur2 of "goods:requestId" picks after it — and none went home first
        int partitions = 4;
        int home = Utils.toPositive(Utils.murmur2(Long.toString(goods).getBytes(StandardCharsets.UTF_8))) % partitions;
        Map<String, Integer> landed = new HashMap<>();
        LedgerReader.readAll(pipeline.namespace().settings(), pipeline.topics().commands(), r -> {
            if (!Long.toString(goods).equals(r.key()) || r.headers().lastHeader("seckill-hop") != null) return;
            String value = new String(r.value(), StandardCharsets.UTF_8);
            if (!value.contains("\"type\":\"purchase\"")) return;
            String id = value.replaceAll(".*\"requestId\":\"([^\"]+)\".*", "$1");
            landed.put(id, r.partition());
        });
        assertThat(landed.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        for (String id : ids) {
            int claim = Utils.toPositive(Utils.murmur2((goods + ":" + id).getBytes(StandardCharsets.UTF_8))) % 3;
            assertThat(landed.get(id)).as(id).isEqualTo((home + claim) % partitions);
        }
        assertThat(landed.values()).as("the purchases spread over the buckets").contains(home, (home + 1) % partitions);
        // and the sale is sold out once, an order for each unit
        List<Outcome> outcomes =
                log.snapshot().stream().filter(o -> o.goodsId() == goods).toList();
        assertThat(soldOf(outcomes, goods)).hasSize(12);
        SaleAudit audit = SaleAudit.of(pipeline, goods, ids, log.snapshot());
        assertThat(audit.violations).isEmpty();
        assertThat(audit.redisStock).isZero();
    }

    @Test
    void anIdTheGatewayIssuesIsClaimedWhereItsBuyerBuysSoThePurchaseMakesNoHop() throws Exception {
        long goods = GOODS + 2;
        Instant start = Instant.now().minusSeconds(5);
        double knownBefore = gatewayGauge("seckill_gateway_bucketed_goods");
        try (KafkaProducer<String, String> producer = producer()) {
            // Given 90 units opened in 3 buckets (no bucket runs out: nothing parks or borrows), known to the gateway
            producer.send(new ProducerRecord<>(
                            pipeline.topics().commands(),
                            Long.toString(goods),
                            "{\"v\":1,\"type\":\"open_sale\",\"goodsId\":" + goods + ",\"stock\":90,\"startAt\":\""
                                    + start + "\",\"endAt\":\"" + start.plusSeconds(3600) + "\",\"perUserLimit\":1,"
                                    + "\"opId\":\"gw-issued-open\",\"buckets\":3}"))
                    .get();
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> gatewayGauge("seckill_gateway_bucketed_goods") > knownBefore);
        // When 30 buyers buy through the gateway without naming a requestId
        List<Integer> statuses = GatewayHttp.together(30, i -> GatewayHttp.purchase(pipeline, goods, 700 + i));
        assertThat(statuses).allMatch(s -> s == 202 || s == 200);
        int partitions = 4;
        int home = Utils.toPositive(Utils.murmur2(Long.toString(goods).getBytes(StandardCharsets.UTF_8))) % partitions;
        Map<String, Integer> landed = new HashMap<>();
        Map<String, Long> buyer = new HashMap<>();
        List<String> hopped = new ArrayList<>();
        LedgerReader.readAll(pipeline.namespace().settings(), pipeline.topics().commands(), r -> {
            String value = new String(r.value(), StandardCharsets.UTF_8);
            if (!Long.toString(goods).equals(r.key()) || !value.contains("\"type\":\"purchase\"")) return;
            String id = value.replaceAll(".*\"requestId\":\"([^\"]+)\".*", "$1");
            if (r.headers().lastHeader("seckill-hop") != null) hopped.add(id);
            else {
                landed.put(id, r.partition());
                buyer.put(id, Long.parseLong(value.replaceAll(".*\"userId\":(\\d+).*", "$1")));
            }
        });
        assertThat(landed).hasSize(30);
        assertThat(Drain.awaitDecided(log, landed.keySet(), Duration.ofSeconds(90)))
                .isTrue();
        // Then each purchase landed in its buyer's bucket — the bucket a murmur2 of the userId picks, after the home —
        for (var e : landed.entrySet()) {
            int bucket = Utils.toPositive(
                            Utils.murmur2(Long.toString(buyer.get(e.getKey())).getBytes(StandardCharsets.UTF_8)))
                    % 3;
            assertThat(e.getValue()).as(e.getKey()).isEqualTo((home + bucket) % partitions);
        }
        // and was decided there: the stream sent none of them on (with ids of the buyer's choosing, two in three hop)
        assertThat(hopped).isEmpty();
        List<Outcome> outcomes =
                log.snapshot().stream().filter(o -> o.goodsId() == goods).toList();
        assertThat(soldOf(outcomes, goods)).hasSize(30);
        SaleAudit audit = SaleAudit.of(pipeline, goods, landed.keySet(), log.snapshot());
        assertThat(audit.violations).isEmpty();
    }

    private static KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(
                Map.of(
                        "bootstrap.servers", pipeline.namespace().settings().kafkaBootstrap(),
                        "acks", "all",
                        "enable.idempotence", "true"),
                new StringSerializer(),
                new StringSerializer());
    }

    /** A gauge of the pipeline's gateway (the pipeline's one registry, which its {@code /metrics} serves). */
    private static double gatewayGauge(String name) {
        var gauge = pipeline.metrics().find(name).gauge();
        return gauge == null ? 0 : gauge.value();
    }

    private static String purchase(String requestId, long user) {
        return "{\"v\":1,\"type\":\"purchase\",\"requestId\":\"" + requestId + "\",\"goodsId\":" + GOODS
                + ",\"userId\":" + user + ",\"quantity\":1,\"acceptedAt\":\"" + Instant.now() + "\"}";
    }

    private static List<Outcome> soldOf(List<Outcome> outcomes) {
        return soldOf(outcomes, GOODS);
    }

    private static List<Outcome> soldOf(List<Outcome> outcomes, long goods) {
        return outcomes.stream()
                .filter(o -> o.goodsId() == goods && o.outcome() == OutcomeKind.SUCCESS)
                .toList();
    }

    private static void send(KafkaProducer<String, String> producer, String json) throws Exception {
        producer.send(new ProducerRecord<>(pipeline.topics().commands(), Long.toString(GOODS), json))
                .get();
    }
}
