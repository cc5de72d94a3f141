package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Given a lottery sale whose window is open (its OPENED ledger entry carries the draw), when a buyer's purchase is
 * accepted, then the 202 says WAITING_DRAW and when the window closes; once the DRAWN entry is in the ledger, a purchase
 * is PENDING again (decided first come first served). A held purchase stays known — WAITING_DRAW on GET, its requestId
 * claimed — past the pending bound until its draw is due; its 202 carries where the broker appended it and the beacon
 * round; a draw late past its cutoff says so. The pending bound is 2 s here, shorter than every window.
 */
class WaitingDrawTest {
    static final long GOODS = 4401;
    static GatewayApp gateway;
    static Settings settings;
    static Topics topics;
    static final AtomicInteger ids = new AtomicInteger();
    /** The status store's pending bound in this class: far shorter than the windows of the held purchases. */
    static final long BOUND_MS = 2_000;
    /** A beacon chain's hash, as the OPENED entry names it (drand's quicknet). */
    static final String CHAIN = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";

    @BeforeAll
    static void start() {
        settings = TestGateways.authOff("gwd")
                .and(Map.of(
                        "gateway.pending.bound.ms",
                        Long.toString(BOUND_MS),
                        // the instances share the key of the ids they issue (auth is off: none derived from it)
                        "gateway.id.secret",
                        "waiting-draw-test-ids-3Jx8Qv2Lm7Rt5Wz9"));
        topics = new Topics(settings.topicPrefix());
        gateway = TestGateways.started(settings);
        TestGateways.openSale(settings, GOODS);
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        TestGateways.removeNamespace(settings);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", settings.kafkaBootstrap()))) {
            admin.deleteConsumerGroups(List.of(GroupIds.gatewayStatus(settings)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    static JsonObject buy() throws Exception {
        HttpResponse<String> r = post(GOODS);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return new JsonObject(r.body());
    }

    static HttpResponse<String> post(long goods) throws Exception {
        return GatewayTest.post(
                gateway.port(),
                "{\"goodsId\":" + goods + ",\"userId\":" + (100 + ids.incrementAndGet()) + ",\"quantity\":1}");
    }

    static void ledger(LedgerEntry e) throws Exception {
        try (KafkaProducer<String, byte[]> p = ReliableProducers.create(settings)) {
            p.send(new ProducerRecord<>(topics.ledger(), Long.toString(e.goodsId()), Json.write(e)))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    /** The goods' sale window in Redis, as the stream's open writes it: from {@code start}, for an hour. */
    static void saleWindow(long goods, long start) {
        RedisKeys keys = new RedisKeys(settings.redisPrefix());
        try (RedisClient redis = RedisClient.create(URI.create(settings.redisUrl()))) {
            redis.hset(
                    keys.sale(goods),
                    Map.of("startAt", Long.toString(start), "endAt", Long.toString(start + 3_600_000)));
            redis.pexpire(keys.sale(goods), 3_600_000);
        }
    }

    /** The OPENED ledger entry of a registration drawn at {@code start}, its window the 5 minutes before. */
    static void registrationOpened(long goods, String opId, long start) throws Exception {
        Instant end = Instant.ofEpochMilli(start);
        ledger(LedgerEntry.of(opId, goods, LedgerType.OPENED, 5, null, null, null, 5, Instant.now())
                .withCommandOffset(0)
                .withDraw(DrawFacts.committed(Fairness.REGISTRATION, 300_000, end, end.plusSeconds(1), CHAIN, 1_000)));
    }

    /** The OPENED entry of a lottery whose window closes at {@code closes}, its cutoff a second later. */
    static DrawFacts lottery(long windowMs, Instant closes, long round) {
        return DrawFacts.committed(Fairness.LOTTERY, windowMs, closes, closes.plusSeconds(1), CHAIN, round);
    }

    static LedgerEntry opened(long goods, String opId, DrawFacts draw) {
        return LedgerEntry.of(opId, goods, LedgerType.OPENED, 5, null, null, null, 5, Instant.now())
                .withCommandOffset(0)
                .withDraw(draw);
    }

    @Test
    void insideALotterysWindowTheAnswerIsWaitingDrawUntilTheDrawIsRecorded() throws Exception {
        assertThat(buy().getString("status")).isEqualTo("PENDING");
        Instant closes = Instant.now().plusSeconds(120);
        DrawFacts draw = lottery(120_000, closes, 1_000);
        ledger(opened(GOODS, "open-l", draw));

        JsonObject[] last = new JsonObject[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            last[0] = buy();
            return last[0].getString("status").equals("WAITING_DRAW");
        });
        assertThat(Instant.parse(last[0].getString("drawClosesAt"))).isEqualTo(closes);
        assertThat(last[0].getString("requestId")).isNotBlank();

        ledger(LedgerEntry.of(
                        LedgerEntry.drawnOpId(GOODS, 0), GOODS, LedgerType.DRAWN, 0, null, null, null, 5, Instant.now())
                .withDraw(draw.revealed(new byte[32], 2, new byte[48], new byte[32], 3, 2)));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> buy().getString("status").equals("PENDING"));
    }

    @Test
    void beforeARegistrationsStartAPurchaseIsARegistration_notRefusedNotStarted() throws Exception {
        long goods = GOODS + 1;
        long start = System.currentTimeMillis() + 120_000;
        saleWindow(goods, start);
        // once the door knows the window (its first lookup lets a request through), before the start is not_started
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "not_started".equals(new JsonObject(post(goods).body()).getString("reason")));
        registrationOpened(goods, "open-r", start);

        JsonObject[] last = new JsonObject[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            HttpResponse<String> r = post(goods);
            last[0] = new JsonObject(r.body());
            return r.statusCode() == 202;
        });
        assertThat(last[0].getString("status")).isEqualTo("WAITING_DRAW");
        assertThat(Instant.parse(last[0].getString("drawClosesAt"))).isEqualTo(Instant.ofEpochMilli(start));
    }

    @Test
    void aGatewayStartedInsideARegistrationWindowKnowsIt_fromTheLedgersPast() throws Exception {
        long goods = GOODS + 2;
        long start = System.currentTimeMillis() + 120_000;
        saleWindow(goods, start);
        registrationOpened(goods, "open-p", start);
        // a gateway started after the open (a restart, a new replica): from its first request on, a registration
        GatewayApp restarted = TestGateways.started(settings);
        try {
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> r = GatewayTest.post(
                        restarted.port(),
                        "{\"goodsId\":" + goods + ",\"userId\":" + (500 + ids.incrementAndGet()) + ",\"quantity\":1}");
                assertThat(r.statusCode()).as("request " + i + ": " + r.body()).isEqualTo(202);
                JsonObject body = new JsonObject(r.body());
                assertThat(body.getString("status")).as("request " + i).isEqualTo("WAITING_DRAW");
                assertThat(Instant.parse(body.getString("drawClosesAt"))).isEqualTo(Instant.ofEpochMilli(start));
            }
        } finally {
            restarted.close();
        }
    }

    /**
     * Issue: a window longer than the pending bound turned a held purchase into 404 ("send again") and let another
     * buyer take its requestId. A purchase accepted inside a 2-minute window, the bound 2 s: once the bound has passed
     * (a purchase of a goods without a draw, accepted after it, is 404 and its id free again), the held purchase's GET
     * still answers WAITING_DRAW through either instance — a client's requestId and one the gateway issued — its buyer's
     * list says WAITING_DRAW (not NOT_RECEIVED), and another buyer under its requestId is refused through the instance
     * that did not accept it (which only the claim tells).
     */
    @Test
    void aPurchaseHeldForALongWindowStaysWaitingDrawPastThePendingBound_andItsRequestIdStaysClaimed() throws Exception {
        long goods = GOODS + 3;
        long control = GOODS + 4;
        TestGateways.openSale(settings, goods);
        TestGateways.openSale(settings, control);
        Instant closes = Instant.ofEpochMilli(System.currentTimeMillis() + 120_000);
        ledger(opened(goods, "open-long", lottery(120_000, closes, 7_777)));
        JsonObject issued = waitingDraw(gateway, goods, null);
        long buyer = 900 + ids.incrementAndGet();
        String held = "held-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> accepted = post(gateway, goods, buyer, held, null);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(new JsonObject(accepted.body()).getString("status")).isEqualTo("WAITING_DRAW");
        String free = "free-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> plain = post(gateway, control, buyer, free, null);
        assertThat(new JsonObject(plain.body()).getString("status")).isEqualTo("PENDING");

        GatewayApp second = TestGateways.started(settings);
        try {
            // the bound has passed, as the gateway sees it: the purchase without a draw is unknown, its claim lapsed
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> status(gateway, free).statusCode() == 404);
            assertThat(post(second, control, buyer + 1, free, null).statusCode())
                    .as("past the bound another buyer takes a lapsed id")
                    .isEqualTo(202);

            for (GatewayApp g : List.of(gateway, second)) {
                for (String id : List.of(held, issued.getString("requestId"))) {
                    HttpResponse<String> r = status(g, id);
                    assertThat(r.statusCode()).as(id + ": " + r.body()).isEqualTo(200);
                    JsonObject body = new JsonObject(r.body());
                    assertThat(body.getString("status")).as(id).isEqualTo("WAITING_DRAW");
                    assertThat(Instant.parse(body.getString("drawClosesAt"))).isEqualTo(closes);
                    assertThat(body.containsKey("drawDelayed")).as(id).isFalse();
                }
            }
            HttpResponse<String> taken = post(second, goods, buyer + 1, held, null);
            assertThat(taken.statusCode()).as(taken.body()).isEqualTo(409);
            assertThat(new JsonObject(taken.body()).getString("field")).isEqualTo("requestId");

            HttpResponse<String> list = GatewayTest.http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + second.port() + "/api/purchases?goodsId="
                                    + goods + "&userId=" + buyer))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
            JsonObject listed =
                    new JsonObject(list.body()).getJsonArray("purchases").getJsonObject(0);
            assertThat(listed.getString("requestId")).isEqualTo(held);
            assertThat(listed.getString("status")).as(list.body()).isEqualTo("WAITING_DRAW");
            assertThat(Instant.parse(listed.getString("drawClosesAt"))).isEqualTo(closes);
        } finally {
            second.close();
        }
    }

    /**
     * A buyer can check their entry: the 202 WAITING_DRAW names where the broker appended their purchase (partition,
     * offset, append time) and the beacon round the draw takes, and the record there is their purchase, its time the
     * broker's. So does the answer of a {@code Prefer: wait} that ran out, a retry of the same purchase, and a GET of
     * the instance that accepted it.
     */
    @Test
    void theWaitingDrawAnswerCarriesTheEntryAsTheBrokerAppendedIt_andTheBeaconRound() throws Exception {
        long goods = GOODS + 5;
        TestGateways.openSale(settings, goods);
        ledger(opened(goods, "open-entry", lottery(120_000, Instant.now().plusSeconds(120), 4_242)));
        JsonObject first = waitingDraw(gateway, goods, null);
        long buyer = 900 + ids.incrementAndGet();
        String id = "entry-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> held = post(gateway, goods, buyer, id, "wait=1");
        assertThat(held.statusCode()).as(held.body()).isEqualTo(202);
        JsonObject waited = new JsonObject(held.body());
        assertThat(held.headers().firstValue("Preference-Applied")).hasValue("wait=1");

        for (JsonObject answer : List.of(first, waited)) {
            assertThat(answer.getString("status")).isEqualTo("WAITING_DRAW");
            assertThat(answer.getLong("beaconRound")).as(answer.encode()).isEqualTo(4_242L);
            assertThat(answer.containsKey("drawDelayed")).isFalse();
            JsonObject entry = answer.getJsonObject("entry");
            assertThat(entry).as(answer.encode()).isNotNull();
            ConsumerRecord<String, byte[]> appended = commandAt(entry.getInteger("partition"), entry.getLong("offset"));
            Purchase p = (Purchase) ((ParsedCommand.Valid) CommandCodec.decode(appended.value())).command();
            assertThat(p.requestId()).isEqualTo(answer.getString("requestId"));
            assertThat(appended.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
            assertThat(Instant.parse(entry.getString("appendedAt")))
                    .isEqualTo(Instant.ofEpochMilli(appended.timestamp()));
        }

        JsonObject retry = new JsonObject(post(gateway, goods, buyer, id, null).body());
        assertThat(retry.getString("status")).isEqualTo("WAITING_DRAW");
        assertThat(retry.getJsonObject("entry")).isEqualTo(waited.getJsonObject("entry"));
        JsonObject got = new JsonObject(status(gateway, id).body());
        assertThat(got.getString("status")).isEqualTo("WAITING_DRAW");
        assertThat(got.getJsonObject("entry")).isEqualTo(waited.getJsonObject("entry"));
        assertThat(got.getLong("beaconRound")).isEqualTo(4_242L);
    }

    /**
     * A draw past its cutoff by more than 30 s and not drawn (its beacon round not reachable): a purchase of the goods
     * waits for it, and the answer says so, naming the round — on the POST and on the GET.
     */
    @Test
    void aDrawLatePastItsCutoffIsSaidToWaitForItsBeaconRound() throws Exception {
        long goods = GOODS + 6;
        TestGateways.openSale(settings, goods);
        Instant closes = Instant.ofEpochMilli(System.currentTimeMillis() - 60_000);
        ledger(opened(goods, "open-late", lottery(50_000, closes, 5_150)));
        JsonObject late = waitingDraw(gateway, goods, null);
        assertThat(Instant.parse(late.getString("drawClosesAt"))).isEqualTo(closes);
        assertThat(late.getString("drawDelayed")).isEqualTo("the draw waits for beacon round 5150");
        JsonObject got =
                new JsonObject(status(gateway, late.getString("requestId")).body());
        assertThat(got.getString("status")).isEqualTo("WAITING_DRAW");
        assertThat(got.getString("drawDelayed")).isEqualTo("the draw waits for beacon round 5150");
    }

    /** A purchase of the goods once the gateway answers WAITING_DRAW for it (it has heard the OPENED entry). */
    static JsonObject waitingDraw(GatewayApp g, long goods, String prefer) {
        JsonObject[] last = new JsonObject[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            HttpResponse<String> r = post(g, goods, 100 + ids.incrementAndGet(), null, prefer);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            last[0] = new JsonObject(r.body());
            return last[0].getString("status").equals("WAITING_DRAW");
        });
        return last[0];
    }

    static HttpResponse<String> post(GatewayApp g, long goods, long user, String requestId, String prefer)
            throws Exception {
        String body = "{\"goodsId\":" + goods + ",\"userId\":" + user + ",\"quantity\":1"
                + (requestId == null ? "" : ",\"requestId\":\"" + requestId + "\"") + "}";
        return prefer == null ? GatewayTest.post(g.port(), body) : GatewayTest.post(g.port(), body, "Prefer", prefer);
    }

    static HttpResponse<String> status(GatewayApp g, String requestId) throws Exception {
        return GatewayTest.http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.port() + "/api/purchases/" + requestId))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The record at {@code offset} of the commands topic's partition, read back (no consumer group). */
    static ConsumerRecord<String, byte[]> commandAt(int partition, long offset) {
        TopicPartition p = new TopicPartition(topics.commands(), partition);
        try (var consumer = new KafkaConsumer<String, byte[]>(
                Map.of("bootstrap.servers", settings.kafkaBootstrap()),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(p));
            consumer.seek(p, offset);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200)))
                    if (r.offset() == offset) return r;
            }
        }
        throw new AssertionError("no record at " + p + "@" + offset);
    }
}
