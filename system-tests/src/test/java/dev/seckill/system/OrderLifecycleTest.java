package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The order lifecycle over the real stack: pay, payment timeout, release, buy again; payments racing the sweeper. */
class OrderLifecycleTest {
    static final long DEADLINE_MS = 2000;
    static Pipeline pipeline;
    static Namespace ns;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        Settings settings = TestNamespaces.inProcess(
                4, Map.of("writer.payment.timeout.ms", Long.toString(DEADLINE_MS), "writer.sweep.interval.ms", "100"));
        ns = TestNamespaces.create(
                settings, "life-" + UUID.randomUUID().toString().substring(0, 8));
        pipeline = new Pipeline(ns).start();
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) pipeline.close();
        if (ns != null) {
            ns.deleteTopics();
            ns.dropDatabase();
        }
    }

    static String one(String sql, Object... args) throws Exception {
        return pipeline.queryOne(sql, args);
    }

    /** A payment reported by the payment provider, with its own credential (a buyer's token is refused). */
    static HttpResponse<String> pay(long orderId, String paymentId) throws Exception {
        return pay(orderId, paymentId, pipeline.paymentProvider());
    }

    static HttpResponse<String> pay(long orderId, String paymentId, String authorization) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(
                                "http://127.0.0.1:" + pipeline.gatewayPort() + "/api/orders/" + orderId + "/pay"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", authorization)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"paymentId\":\"" + paymentId + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static long orderOf(String requestId) throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> pipeline.orderIdOf(requestId) != null);
        return pipeline.orderIdOf(requestId);
    }

    String redisStock(long goods) {
        return pipeline.redis().get(pipeline.keys().stock(goods));
    }

    @Test
    void unpaidOrdersAreCancelledAndReleased_theBuyerCanBuyAgain_aLatePaymentIsRefused() throws Exception {
        long goods = 4001;
        pipeline.openSale(goods, 3, Duration.ofHours(1), 1);
        for (long user = 1; user <= 3; user++)
            pipeline.send(new Purchase("life-" + user, goods, user, 1, Instant.now()));
        long paid = orderOf("life-1");
        long unpaid = orderOf("life-2");
        long late = orderOf("life-3");
        HttpResponse<String> byTheBuyer = pay(paid, "buyer-says-paid", pipeline.bearer(1));
        assertThat(byTheBuyer.statusCode())
                .as("a buyer's token cannot report a payment")
                .isEqualTo(403);
        assertThat(byTheBuyer.body()).contains("only the payment provider");
        assertThat(pay(paid, "pay-" + paid).statusCode()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "PAID".equals(one("SELECT status FROM purchase_order WHERE order_id = ?", paid)));
        assertThat(one("SELECT COUNT(*) FROM payment WHERE payment_id = 'buyer-says-paid'"))
                .as("the buyer's call never reached the writer")
                .isEqualTo("0");

        await().atMost(Duration.ofSeconds(30))
                .until(() -> "2".equals(redisStock(goods))
                        && "2".equals(one("SELECT stock FROM sale WHERE goods_id = ?", goods)));
        assertThat(one("SELECT status FROM purchase_order WHERE order_id = ?", unpaid))
                .isEqualTo("CANCELLED");
        assertThat(one("SELECT status FROM purchase_order WHERE order_id = ?", paid))
                .as("invariant 7: paid is never released")
                .isEqualTo("PAID");
        assertThat(one(
                        "SELECT COUNT(*) FROM stock_ledger WHERE type = 'RELEASED' AND op_id = ?",
                        "release-order-" + paid))
                .isEqualTo("0");

        pipeline.send(new Purchase("life-2-again", goods, 2, 1, Instant.now()));
        orderOf("life-2-again");
        assertThat(one("SELECT status FROM purchase_order WHERE request_id = 'life-2-again'"))
                .isEqualTo("CREATED");
        assertThat(redisStock(goods)).isEqualTo("1");

        assertThat(pay(late, "pay-late").statusCode()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "REFUSED".equals(one("SELECT status FROM payment WHERE payment_id = 'pay-late'")));
        assertThat(one("SELECT reason FROM payment WHERE payment_id = 'pay-late'"))
                .contains("cancelled");
        assertThat(one("SELECT status FROM purchase_order WHERE order_id = ?", late))
                .as("invariant 7: released is never paid")
                .isEqualTo("CANCELLED");
    }

    @Test
    void paymentsRacingTheSweeperEndInExactlyOneOfPaidOrCancelledAndReleased() throws Exception {
        long goods = 4002;
        int n = 60;
        pipeline.openSale(goods, n, Duration.ofHours(1), 1);
        for (int user = 1; user <= n; user++)
            pipeline.send(new Purchase("race-" + user, goods, user, 1, Instant.now()));
        // each order's payment is fired at its own deadline shifted by -1500..+500 ms: some before it, some after.
        // Orders
        // are planned as they are written (on a loaded machine the last may come seconds after the first), so every
        // payment keeps its place relative to its own order's deadline
        ScheduledExecutorService payers = Executors.newScheduledThreadPool(16);
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        Set<Long> planned = new HashSet<>();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    try (Connection c = pipeline.db().getConnection();
                            PreparedStatement ps = c.prepareStatement(
                                    "SELECT order_id, created_at FROM purchase_order WHERE goods_id = ? ORDER BY order_id")) {
                        ps.setLong(1, goods);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                long orderId = rs.getLong(1);
                                if (!planned.add(orderId)) continue;
                                long createdMs = rs.getTimestamp(2, Calendar.getInstance(TimeZone.getTimeZone("UTC")))
                                        .getTime();
                                long at = createdMs + DEADLINE_MS - 1500 + ((planned.size() - 1) % 21) * 100L;
                                CompletableFuture<Integer> call = new CompletableFuture<>();
                                payers.schedule(
                                        () -> {
                                            try {
                                                call.complete(pay(orderId, "race-pay-" + orderId)
                                                        .statusCode());
                                            } catch (Exception e) {
                                                call.complete(-1);
                                            }
                                        },
                                        Math.max(0, at - System.currentTimeMillis()),
                                        TimeUnit.MILLISECONDS);
                                calls.add(call);
                            }
                        }
                    }
                    return planned.size() == n;
                });
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        payers.shutdown();
        assertThat(calls.stream().map(CompletableFuture::join)).allMatch(code -> code == 202);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> Integer.parseInt(one(
                                "SELECT COUNT(*) FROM payment p JOIN purchase_order o ON o.order_id = p.order_id WHERE o.goods_id = ? AND p.status <> 'PENDING'",
                                goods))
                        == n);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND status = 'CREATED'", goods)
                                .equals("0")
                        && redisStock(goods).equals(one("SELECT stock FROM sale WHERE goods_id = ?", goods))
                        && one(
                                        "SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND status = 'CANCELLED' AND release_sent_at IS NULL",
                                        goods)
                                .equals("0"));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> one("SELECT COUNT(*) FROM stock_ledger WHERE goods_id = ? AND type = 'RELEASED'", goods)
                        .equals(one(
                                "SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND status = 'CANCELLED'",
                                goods)));

        int paid = Integer.parseInt(
                one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND status = 'PAID'", goods));
        int cancelled = Integer.parseInt(
                one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND status = 'CANCELLED'", goods));
        assertThat(paid + cancelled).isEqualTo(n);
        assertThat(paid).as("some payments won the race").isPositive();
        assertThat(cancelled).as("some lost it").isPositive();
        assertThat(one(
                        "SELECT COUNT(*) FROM payment p JOIN purchase_order o ON o.order_id = p.order_id "
                                + "WHERE o.goods_id = ? AND p.status = 'ACCEPTED'",
                        goods))
                .isEqualTo(Integer.toString(paid));
        assertThat(one(
                        "SELECT COUNT(*) FROM payment p JOIN purchase_order o ON o.order_id = p.order_id "
                                + "WHERE o.goods_id = ? AND p.status = 'REFUSED'",
                        goods))
                .isEqualTo(Integer.toString(cancelled));
        assertThat(one(
                        "SELECT COUNT(*) FROM purchase_order o JOIN stock_ledger l ON l.op_id = CONCAT('release-order-', o.order_id) "
                                + "WHERE o.goods_id = ? AND o.status = 'PAID'",
                        goods))
                .as("invariant 7: no paid order was released")
                .isEqualTo("0");
        assertThat(Long.parseLong(redisStock(goods)))
                .as("every cancelled unit is back in Redis")
                .isEqualTo(cancelled);
        assertThat(one(
                        "SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND status = 'PAID' "
                                + "AND paid_at >= created_at + INTERVAL " + DEADLINE_MS + " * 1000 MICROSECOND",
                        goods))
                .as("a payment counts by its own time: none accepted at or after its order's deadline")
                .isEqualTo("0");
    }
}
