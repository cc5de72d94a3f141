package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.infra.drill.Namespace;
import dev.seckill.infra.drill.Namespaces;
import dev.seckill.infra.drill.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.observability.MetricsServer;
import dev.seckill.order.db.Database;
import dev.seckill.reconcile.Reconciler;
import dev.seckill.stack.KafkaFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shipped alert fired by the fault it is for, through a real Prometheus ({@link LocalPrometheus}: Debian's
 * package, {@code monitoring/alerts.yml} with each {@code for:} cut to 1 s, a scrape and an evaluation every second)
 * scraping the real {@code /metrics} of services started for each scenario — the gateway's on its admin port, as
 * deployed. One Prometheus for the class: each scenario points the jobs at its own services and first checks that its
 * alerts are quiet, so only the first depends on the order (a healthy sale fires nothing). The faults:
 * <ul>
 *   <li>{@code SeckillStockDrift}: a goods' Redis stock set by hand (the repair resolves it); {@code SeckillServiceDown}:
 *       a {@code /metrics} endpoint gone;
 * </ul>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AlertsThroughPrometheusTest {
    static final Duration ALERT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    static LocalPrometheus prom;
    static Settings base;

    @BeforeAll
    static void prometheus() throws Exception {
        base = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "topic.partitions",
                "2"));
        prom = LocalPrometheus.start(dir);
    }

    @AfterAll
    static void stopPrometheus() throws Exception {
        if (prom != null) prom.close();
    }

    @AfterEach
    void forgetTargets() throws Exception {
        if (prom != null) prom.forgetAll();
    }

    @Test
    @Order(1)
    void givenAHealthySale_whenStockTampered_thenDriftFiresAndResolves_whenEndpointGone_thenServiceDownFires()
            throws Exception {
        long goods = 5401;
        Namespace ns = namespace("alert", base);
        try (Pipeline p = new Pipeline(ns).start();
                var db = Database.open(ns.settings(), "alerts-e2e");
                var producer = ReliableProducers.create(ns.settings().kafkaBootstrap());
                Reconciler watch = new Reconciler(ns.settings(), db, p.redis(), producer, p.metrics(), true);
                Reconciler repair = new Reconciler(ns.settings(), db, p.redis(), producer, p.metrics(), false)) {
            p.openSale(goods, 5, Duration.ofHours(1), 1);
            p.send(new Purchase("al-1", goods, 1, 1, Instant.now()));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> "4".equals(p.redis().get(p.keys().stock(goods)))
                            && "1".equals(p.queryOne("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ?", goods)));
            // stock-stream, order-writer and the reconciler run in this JVM: their jobs scrape its one registry; the
            // gateway's job its admin port, which serves the same registry
            MetricsServer services = MetricsServer.start(p.metrics(), 0);
            try {
                prom.scrape("ingress-gateway", p.gatewayMetricsPort());
                for (String job : List.of("stock-stream", "order-writer", "reconciler"))
                    prom.scrape(job, services.port());
                watch.cycle(goods);
                prom.awaitScraped(services.port(), "seckill_reconcile_drift{source=\"redis\"}", 0);
                prom.awaitScraped(p.gatewayMetricsPort(), "up", 1);
                await().during(Duration.ofSeconds(3))
                        .atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertThat(prom.firing())
                                .as("a healthy sale fires nothing")
                                .isEmpty());

                p.redis().set(p.keys().stock(goods), "11"); // someone "fixed" the stock by hand
                await().atMost(ALERT).pollInSameThread().until(() -> {
                    watch.cycle(goods);
                    return prom.firing().contains("SeckillStockDrift{goods=" + goods + ",source=redis}");
                });
                await().atMost(Duration.ofSeconds(90)).pollInSameThread().until(() -> {
                    repair.cycle(goods); // restores Redis through the goods' serial order
                    watch.cycle(goods);
                    return !prom.fires("SeckillStockDrift");
                });
                assertThat(p.redis().get(p.keys().stock(goods))).isEqualTo("4");
            } finally {
                services.close(); // the process serving /metrics is gone
            }
            await().atMost(ALERT)
                    .until(() -> prom.firing().stream()
                            .anyMatch(a -> a.startsWith("SeckillServiceDown{") && a.contains("job=order-writer")));
            assertThat(prom.firing())
                    .as("the gateway's admin port is scraped, not the endpoint that went away")
                    .noneMatch(a -> a.startsWith("SeckillServiceDown{") && a.contains("job=ingress-gateway"));
        } finally {
            clean(ns);
        }
    }

    private static Namespace namespace(String prefix, Settings settings) {
        return Namespace.create(
                settings, prefix + "-" + UUID.randomUUID().toString().substring(0, 6));
    }

    private static void clean(Namespace ns) {
        new Namespaces(base).clean(ns.name());
    }
}
