package dev.seckill.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.config.Settings;
import dev.seckill.infra.drill.Namespace;
import dev.seckill.infra.drill.Pipeline;
import dev.seckill.stack.KafkaFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
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

    @BeforeAll static void start() {
        Settings settings = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap(), "gateway.port", "0",
                "topic.partitions", "2", "writer.payment.timeout.ms", "600000"));
        ns = Namespace.create(settings, "oprel-" + UUID.randomUUID().toString().substring(0, 8));
        pipeline = new Pipeline(ns).start();
    }

    @AfterAll static void stop() {
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
        try (Connection c = pipeline.db().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    static long orderOf(String requestId) throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> one("SELECT order_id FROM purchase_order WHERE request_id = ?", requestId) != null);
        return Long.parseLong(one("SELECT order_id FROM purchase_order WHERE request_id = ?", requestId));
    }

    static HttpResponse<String> pay(long orderId, String paymentId) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + pipeline.gatewayPort() + "/api/orders/" + orderId + "/pay"))
                .header("Content-Type", "application/json").header("Authorization", pipeline.paymentProvider())
                .POST(HttpRequest.BodyPublishers.ofString("{\"paymentId\":\"" + paymentId + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test void anOperatorsReleaseEndsTheOrder_aLaterPaymentIsRefused_andTheBuyersNextPurchaseBecomesAnOrder() throws Exception {
        long goods = 4101;
        pipeline.openSale(goods, 1, Duration.ofHours(1), 1);
        pipeline.send(new Purchase("op-rel-1", goods, 1, 1, Instant.now()));
        long order = orderOf("op-rel-1");
        pipeline.send(new Release(goods, 1, 1, order, null, "cancelled", "ops-cancel-" + order));

        await().atMost(Duration.ofSeconds(60)).until(() -> "CANCELLED".equals(one("SELECT status FROM purchase_order WHERE order_id = ?", order)));
        assertThat(one("SELECT cancel_reason FROM purchase_order WHERE order_id = ?", order)).contains("ops-cancel-" + order);
        assertThat(one("SELECT live_user_id FROM purchase_order WHERE order_id = ?", order)).isNull();
        await().atMost(Duration.ofSeconds(30)).until(() -> "1".equals(pipeline.redis().get(pipeline.keys().stock(goods)))
                && "1".equals(one("SELECT stock FROM sale WHERE goods_id = ?", goods)));

        assertThat(pay(order, "pay-after-ops").statusCode()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).until(() -> "REFUSED".equals(one("SELECT status FROM payment WHERE payment_id = 'pay-after-ops'")));
        assertThat(one("SELECT status FROM purchase_order WHERE order_id = ?", order)).as("invariant 7: released is never paid").isEqualTo("CANCELLED");

        pipeline.send(new Purchase("op-rel-1-again", goods, 1, 1, Instant.now()));
        long again = orderOf("op-rel-1-again");
        assertThat(one("SELECT status FROM purchase_order WHERE order_id = ?", again)).isEqualTo("CREATED");
        assertThat(pipeline.redis().get(pipeline.keys().stock(goods))).isEqualTo("0");
        assertThat(one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND live_user_id IS NOT NULL", goods)).isEqualTo("1");
        var dlq = pipeline.metrics().find("seckill_dlq_records").tag("source", "order-writer").counter();
        assertThat(dlq == null ? 0 : dlq.count()).as("the new SUCCESS became an order, not a DLQ record").isZero();
    }
}
