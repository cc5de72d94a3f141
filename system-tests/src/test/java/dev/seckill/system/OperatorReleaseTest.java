package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.params.ScanParams;

/**
 * An operator's release (not the sweeper's) over the whole pipeline: stock-stream gives the unit back, and the order it
 * released ends — CANCELLED, no longer payable — so the buyer's next purchase becomes an order (invariants 3 and 7).
 * The payment deadline is long, so nothing here is the sweeper's doing.
 */
class OperatorReleaseTest {
    static Pipeline pipeline;
    static Namespace ns;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        Settings settings = TestNamespaces.inProcess(2, Map.of("writer.payment.timeout.ms", "600000"));
        ns = TestNamespaces.create(
                settings, "oprel-" + UUID.randomUUID().toString().substring(0, 8));
        pipeline = new Pipeline(ns).start();
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) {
            String match = pipeline.keys().prefix() + "*";
            var redis = pipeline.redis();
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                var page = redis.scan(cursor, new ScanParams().match(match).count(500));
                if (!page.getResult().isEmpty()) redis.del(page.getResult().toArray(String[]::new));
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            pipeline.close();
        }
        ns.deleteTopics();
        ns.dropDatabase();
    }

    static String one(String sql, Object... args) throws Exception {
        return pipeline.queryOne(sql, args);
    }

    static long orderOf(String requestId) throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> pipeline.orderIdOf(requestId) != null);
        return pipeline.orderIdOf(requestId);
    }

    static HttpResponse<String> pay(long orderId, String paymentId) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(
                                "http://127.0.0.1:" + pipeline.gatewayPort() + "/api/orders/" + orderId + "/pay"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", pipeline.paymentProvider())
                        .POST(HttpRequest.BodyPublishers.ofString("{\"paymentId\":\"" + paymentId + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anOperatorsReleaseEndsTheOrder_aLaterPaymentIsRefused_andTheBuyersNextPurchaseBecomesAnOrder()
            throws Exception {
        long goods = 4101;
        pipeline.openSale(goods, 1, Duration.ofHours(1), 1);
        pipeline.send(new Purchase("op-rel-1", goods, 1, 1, Instant.now()));
        long order = orderOf("op-rel-1");
        pipeline.send(new Release(goods, 1, 1, order, null, "cancelled", "ops-cancel-" + order));

        await().atMost(Duration.ofSeconds(60))
                .until(() -> "CANCELLED".equals(one("SELECT status FROM purchase_order WHERE order_id = ?", order)));
        assertThat(one("SELECT cancel_reason FROM purchase_order WHERE order_id = ?", order))
                .contains("ops-cancel-" + order);
        assertThat(one("SELECT live_user_id FROM purchase_order WHERE order_id = ?", order))
                .isNull();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "1".equals(pipeline.redis().get(pipeline.keys().stock(goods)))
                        && "1".equals(one("SELECT stock FROM sale WHERE goods_id = ?", goods)));

        assertThat(pay(order, "pay-after-ops").statusCode()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "REFUSED".equals(one("SELECT status FROM payment WHERE payment_id = 'pay-after-ops'")));
        assertThat(one("SELECT status FROM purchase_order WHERE order_id = ?", order))
                .as("invariant 7: released is never paid")
                .isEqualTo("CANCELLED");

        pipeline.send(new Purchase("op-rel-1-again", goods, 1, 1, Instant.now()));
        long again = orderOf("op-rel-1-again");
        assertThat(one("SELECT status FROM purchase_order WHERE order_id = ?", again))
                .isEqualTo("CREATED");
        assertThat(pipeline.redis().get(pipeline.keys().stock(goods))).isEqualTo("0");
        assertThat(one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND live_user_id IS NOT NULL", goods))
                .isEqualTo("1");
        var dlq = pipeline.metrics()
                .get("seckill_dlq_records")
                .tag("source", "order-writer")
                .counter();
        assertThat(dlq.count())
                .as("the new SUCCESS became an order, not a DLQ record")
                .isZero();
    }

    static double streamDlq() {
        var dlq = pipeline.metrics()
                .get("seckill_dlq_records")
                .tag("source", "stock-stream")
                .counter();
        return dlq.count();
    }

    @Test
    void aPaidPurchaseIsNeverReleased_theOperatorsReleaseIsRefusedByTheStream_andTheOrderStaysPaidWithoutAnomaly()
            throws Exception {
        long goods = 4102;
        pipeline.openSale(goods, 2, Duration.ofHours(1), 1);
        pipeline.send(new Purchase("op-rel-paid", goods, 2, 1, Instant.now()));
        long order = orderOf("op-rel-paid");
        assertThat(pay(order, "pay-first").statusCode()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "PAID".equals(one("SELECT status FROM purchase_order WHERE order_id = ?", order)));
        assertThat(one("SELECT status FROM payment WHERE payment_id = 'pay-first'"))
                .isEqualTo("ACCEPTED");
        assertThat(one("SELECT type FROM stock_ledger WHERE op_id = ?", "pay-order-" + order))
                .isEqualTo("PAID");

        double dlqBefore = streamDlq();
        pipeline.send(new Release(goods, 2, 1, order, null, "cancelled", "ops-cancel-paid-" + order));
        await().atMost(Duration.ofSeconds(60)).until(() -> streamDlq() > dlqBefore);
        assertThat(pipeline.redis().get(pipeline.keys().stock(goods)))
                .as("the paid unit stays sold")
                .isEqualTo("1");
        assertThat(pipeline.redis().hget(pipeline.keys().holders(goods), "2")).isEqualTo("op-rel-paid");
        assertThat(one("SELECT status FROM purchase_order WHERE order_id = ?", order))
                .isEqualTo("PAID");
        assertThat(one("SELECT COUNT(*) FROM order_anomaly WHERE order_id = ?", order))
                .as("nothing to repair")
                .isEqualTo("0");
        assertThat(one("SELECT COUNT(*) FROM stock_ledger WHERE op_id = ?", "ops-cancel-paid-" + order))
                .isEqualTo("0");
    }

    @Test
    void aPaymentAndAReleaseSentTogether_exactlyOneWins_andRedisAndTheDatabaseAgreeOnWhich() throws Exception {
        long goods = 4103;
        pipeline.openSale(goods, 5, Duration.ofHours(1), 1);
        for (int user = 1; user <= 4; user++)
            pipeline.send(new Purchase("race-" + user, goods, user, 1, Instant.now()));
        for (int user = 1; user <= 4; user++) {
            long order = orderOf("race-" + user);
            // the release first for some, the payment first for others: the stream's serial order decides either way
            if (user % 2 == 0)
                pipeline.send(new Release(goods, user, 1, order, null, "cancelled", "race-cancel-" + order));
            assertThat(pay(order, "race-pay-" + order).statusCode()).isEqualTo(202);
            if (user % 2 == 1)
                pipeline.send(new Release(goods, user, 1, order, null, "cancelled", "race-cancel-" + order));
        }
        for (int user = 1; user <= 4; user++) {
            long order = orderOf("race-" + user);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                String st = one("SELECT status FROM payment WHERE payment_id = ?", "race-pay-" + order);
                return st != null && !"PENDING".equals(st);
            });
            String payment = one("SELECT status FROM payment WHERE payment_id = ?", "race-pay-" + order);
            String status = one("SELECT status FROM purchase_order WHERE order_id = ?", order);
            String holder = pipeline.redis().hget(pipeline.keys().holders(goods), Integer.toString(user));
            if ("ACCEPTED".equals(payment)) {
                assertThat(status).as("order " + order).isEqualTo("PAID");
                assertThat(holder).as("a paid unit is still held").isEqualTo("race-" + user);
            } else {
                assertThat(payment).isEqualTo("REFUSED");
                await().atMost(Duration.ofSeconds(60))
                        .until(() ->
                                "CANCELLED".equals(one("SELECT status FROM purchase_order WHERE order_id = ?", order)));
                assertThat(holder).as("a released unit is not held").isNull();
            }
        }
        assertThat(one("SELECT COUNT(*) FROM order_anomaly WHERE goods_id = ?", goods))
                .isEqualTo("0");
        long paid = Long.parseLong(
                one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND status = 'PAID'", goods));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> Long.toString(5 - paid)
                                .equals(pipeline.redis().get(pipeline.keys().stock(goods)))
                        && Long.toString(5 - paid).equals(one("SELECT stock FROM sale WHERE goods_id = ?", goods)));
    }
}
