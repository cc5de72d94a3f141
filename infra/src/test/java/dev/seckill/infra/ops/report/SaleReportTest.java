package dev.seckill.infra.ops.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given a small sale whose every outcome the test knows (3 units; 5 buyers, a repeat, an over-limit; one order paid,
 * one released), when the report reads the namespace's topics and database, then its figures are those, and its HTML
 * page renders in a real headless browser with data in all three charts and no script error.
 */
@Tag("light")
class SaleReportTest {
    static final long GOODS = 5101;
    static Pipeline pipeline;
    static Namespace ns;

    @BeforeAll
    static void start() {
        Settings settings = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "topic.partitions",
                "2",
                "writer.payment.timeout.ms",
                "600000"));
        ns = Namespace.create(settings, "report-" + UUID.randomUUID().toString().substring(0, 8));
        pipeline = new Pipeline(ns).start();
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) pipeline.close();
        ns.deleteTopics();
        ns.deleteRedisKeys();
        ns.dropDatabase();
    }

    static String one(String sql, Object... args) throws Exception {
        return pipeline.queryOne(sql, args);
    }

    static long orderOf(String requestId) throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> pipeline.orderIdOf(requestId) != null);
        return pipeline.orderIdOf(requestId);
    }

    @Test
    void theReportsFiguresAreThoseOfASaleWhoseOutcomesAreKnown_andItsHtmlRendersInABrowser(@TempDir Path dir)
            throws Exception {
        pipeline.openSale(GOODS, 3, Duration.ofHours(1), 1);
        for (int user = 1; user <= 5; user++) pipeline.send(new Purchase("rep-" + user, GOODS, user, 1, Instant.now()));
        pipeline.send(new Purchase("rep-1-again", GOODS, 1, 1, Instant.now())); // DUPLICATE
        pipeline.send(new Purchase("rep-two", GOODS, 9, 2, Instant.now())); // REJECTED over_limit
        long paid = orderOf("rep-2");
        HttpResponse<String> pay = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + pipeline.gatewayPort() + "/api/orders/" + paid + "/pay"))
                                .header("Content-Type", "application/json")
                                .header("Authorization", pipeline.paymentProvider())
                                .POST(HttpRequest.BodyPublishers.ofString("{\"paymentId\":\"rep-pay\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(pay.statusCode()).isEqualTo(202);
        long released = orderOf("rep-3");
        pipeline.send(new Release(GOODS, 3, 1, released, "rep-3", "cancelled", "rep-cancel"));
        orderOf("rep-1");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> "PAID".equals(one("SELECT status FROM purchase_order WHERE order_id = ?", paid))
                        && "CANCELLED".equals(one("SELECT status FROM purchase_order WHERE order_id = ?", released)));

        List<GoodsReport> reports = await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> new ReportSource(ns.settings()).read(GOODS, n -> {}),
                        r -> r.size() == 1 && r.get(0).requests() == 7);
        GoodsReport r = reports.get(0);
        assertThat(r.kind(OutcomeKind.SUCCESS)).isEqualTo(3);
        assertThat(r.kind(OutcomeKind.SOLD_OUT)).isEqualTo(2);
        assertThat(r.kind(OutcomeKind.DUPLICATE)).isEqualTo(1);
        assertThat(r.count("REJECTED/over_limit")).isEqualTo(1);
        Instant lastUnit = r.outcomes().stream()
                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                .map(o -> o.decidedAt())
                .max(Instant::compareTo)
                .orElseThrow();
        assertThat(r.soldOutAt()).as("the decision that took the last unit").isEqualTo(lastUnit);
        assertThat(r.openToSoldOut()).isPositive();
        assertThat(r.ordersCreated()).isEqualTo(3);
        assertThat(r.ordersWith("PAID")).isEqualTo(1);
        assertThat(r.ordersWith("CANCELLED")).isEqualTo(1);
        assertThat(r.ordersWith("CREATED")).isEqualTo(1);
        assertThat(r.unitsReleased()).isEqualTo(1);
        assertThat(r.latencyQuantileMs(0.5)).isBetween(0L, r.latencyQuantileMs(0.99));
        assertThat(r.stockOverTime())
                .extracting(GoodsReport.StockPoint::stock)
                .startsWith(3L, 2L, 1L, 0L)
                .endsWith(1L);
        assertThat(TextReport.render(reports))
                .contains("goods 5101: 7 requests decided")
                .contains("over_limit 1")
                .contains("3 created: 1 paid")
                .contains("1 units released");

        Path html = dir.resolve("report.html");
        Files.writeString(html, HtmlReport.render("report test", reports), StandardCharsets.UTF_8);
        String dom = HeadlessChromium.dumpDom(html);
        assertThat(dom)
                .contains("data-charts=\"3\"")
                .doesNotContain("data-errors")
                .contains("goods 5101");
    }
}
