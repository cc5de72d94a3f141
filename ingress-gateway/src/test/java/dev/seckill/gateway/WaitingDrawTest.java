package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Given a lottery sale whose window is open (its OPENED ledger entry carries the draw), when a buyer's purchase is
 * accepted, then the 202 says WAITING_DRAW and when the window closes; once the DRAWN entry is in the ledger, a purchase
 * is PENDING again (decided first come first served).
 */
class WaitingDrawTest {
    static final long GOODS = 4401;
    static GatewayApp gateway;
    static Settings settings;
    static Topics topics;
    static final AtomicInteger ids = new AtomicInteger();

    @BeforeAll
    static void start() {
        settings = TestGateways.authOff("gwd");
        topics = new Topics(settings.topicPrefix());
        gateway = TestGateways.started(settings);
        TestGateways.openSale(settings, GOODS);
    }

    @AfterAll
    static void stop() {
        gateway.close();
        TestGateways.removeNamespace(settings);
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
        byte[] seed = Draw.seed("a-secret-of-this-test-0123456789".getBytes(), goods, opId, start);
        ledger(LedgerEntry.of(opId, goods, LedgerType.OPENED, 5, null, null, null, 5, Instant.now())
                .withCommandOffset(0)
                .withDraw(DrawFacts.committed(
                        Fairness.REGISTRATION, 300_000, Instant.ofEpochMilli(start), Draw.commitment(seed))));
    }

    @Test
    void insideALotterysWindowTheAnswerIsWaitingDrawUntilTheDrawIsRecorded() throws Exception {
        assertThat(buy().getString("status")).isEqualTo("PENDING");
        byte[] seed = Draw.seed("a-secret-of-this-test-0123456789".getBytes(), GOODS, "open-l", 0);
        Instant closes = Instant.now().plusSeconds(120);
        ledger(LedgerEntry.of("open-l", GOODS, LedgerType.OPENED, 5, null, null, null, 5, Instant.now())
                .withCommandOffset(0)
                .withDraw(DrawFacts.committed(Fairness.LOTTERY, 120_000, closes, Draw.commitment(seed))));

        JsonObject[] last = new JsonObject[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            last[0] = buy();
            return last[0].getString("status").equals("WAITING_DRAW");
        });
        assertThat(Instant.parse(last[0].getString("drawClosesAt"))).isEqualTo(closes);
        assertThat(last[0].getString("requestId")).isNotBlank();

        ledger(LedgerEntry.of(
                        LedgerEntry.drawnOpId(GOODS, 0), GOODS, LedgerType.DRAWN, 0, null, null, null, 5, Instant.now())
                .withDraw(DrawFacts.revealed(Fairness.LOTTERY, 120_000, closes, Draw.commitment(seed), seed, 3, 2)));
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
}
