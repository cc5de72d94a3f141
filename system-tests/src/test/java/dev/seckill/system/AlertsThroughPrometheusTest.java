package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.infra.drill.Namespace;
import dev.seckill.infra.drill.Namespaces;
import dev.seckill.infra.drill.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.order.db.Database;
import dev.seckill.reconcile.Reconciler;
import dev.seckill.stack.KafkaFixture;
import java.io.File;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped alerts through a real Prometheus (Debian's package, on a spare loopback port): Given a running pipeline
 * whose {@code /metrics} Prometheus scrapes every second with {@code monitoring/alerts.yml} (each {@code for:}
 * shortened to 1 s — their durations have their own unit tests in {@code alerts.test.yml}) — the gateway's on its
 * admin port, as deployed — when a goods' Redis stock is tampered with, then the reconciler's drift makes
 * {@code SeckillStockDrift} fire for that goods, and after the repair it resolves; when the metrics endpoint goes away
 * (a process killed), {@code SeckillServiceDown} fires, and not for the gateway, whose admin port still answers.
 */
class AlertsThroughPrometheusTest {
    static final Path MONITORING = Path.of("..", "monitoring").toAbsolutePath().normalize();
    static final long GOODS = 5401;
    final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void aTamperedStockFiresTheDriftAlertThroughPrometheusAndTheRepairResolvesIt_andAGoneServiceFiresServiceDown()
            throws Exception {
        Path prometheus = Path.of("/usr/bin/prometheus");
        assumeTrue(Files.isExecutable(prometheus), "no prometheus here (apt-get install prometheus): skipped");
        Settings settings = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "topic.partitions",
                "2"));
        Namespace ns = Namespace.create(
                settings, "alert-" + UUID.randomUUID().toString().substring(0, 6));
        Process server = null;
        HttpServer metrics = null;
        try (Pipeline p = new Pipeline(ns).start();
                var db = Database.open(ns.settings(), "alerts-e2e");
                var producer = ReliableProducers.create(ns.settings());
                Reconciler watch = new Reconciler(ns.settings(), db, p.redis(), producer, p.metrics(), true);
                Reconciler repair = new Reconciler(ns.settings(), db, p.redis(), producer, p.metrics(), false)) {
            p.openSale(GOODS, 5, Duration.ofHours(1), 1);
            p.send(new Purchase("al-1", GOODS, 1, 1, Instant.now()));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> "4".equals(p.redis().get(p.keys().stock(GOODS)))
                            && "1".equals(p.queryOne("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ?", GOODS)));
            metrics = serve(p);
            int port = freePort();
            server = startPrometheus(prometheus, metrics.getAddress().getPort(), p.gatewayMetricsPort(), port);
            int prom = port;
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(() -> get(prom, "/-/ready").contains("Ready"));
            watch.cycle(GOODS);
            await().atMost(Duration.ofSeconds(30)).until(() -> rulesEvaluated(prom));
            assertThat(firing(prom)).as("a healthy sale fires nothing").isEmpty();

            p.redis().set(p.keys().stock(GOODS), "11"); // someone "fixed" the stock by hand
            await().atMost(Duration.ofSeconds(60)).pollInSameThread().until(() -> {
                watch.cycle(GOODS);
                return firing(prom).contains("SeckillStockDrift{goods=" + GOODS + ",source=redis}");
            });

            await().atMost(Duration.ofSeconds(90)).pollInSameThread().until(() -> {
                repair.cycle(GOODS); // restores Redis through the goods' serial order
                watch.cycle(GOODS);
                return !firing(prom).toString().contains("SeckillStockDrift");
            });
            assertThat(p.redis().get(p.keys().stock(GOODS))).isEqualTo("4");

            metrics.stop(0); // the process serving /metrics is gone
            metrics = null;
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> firing(prom).stream()
                            .anyMatch(a -> a.startsWith("SeckillServiceDown{") && a.contains("job=order-writer")));
            assertThat(firing(prom))
                    .as("the gateway's admin port is scraped, not the endpoint that went away")
                    .noneMatch(a -> a.startsWith("SeckillServiceDown{") && a.contains("job=ingress-gateway"));
        } finally {
            if (metrics != null) metrics.stop(0);
            if (server != null) {
                server.destroy();
                server.waitFor(20, TimeUnit.SECONDS);
            }
            new Namespaces(settings).clean(ns.name());
        }
    }

    /**
     * The pipeline's one registry as the jobs of stock-stream, order-writer and the reconciler (all four services run
     * in this JVM; the gateway's job scrapes the gateway's own admin port, which serves the same registry).
     */
    private static HttpServer serve(Pipeline p) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.createContext("/metrics", ex -> {
            byte[] body = p.metrics().scrape().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        s.start();
        return s;
    }

    /**
     * Prometheus with the shipped rules (every for: 1s), scraping the pipeline as each of the four jobs every second:
     * the gateway at {@code gateway} (its admin port), the others at {@code target}.
     */
    private Process startPrometheus(Path binary, int target, int gateway, int port) throws Exception {
        String rules = Files.readString(MONITORING.resolve("alerts.yml")).replaceAll("for: \\w+", "for: 1s");
        Files.writeString(dir.resolve("alerts.yml"), rules);
        StringBuilder config = new StringBuilder("global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
                + "rule_files: [alerts.yml]\nscrape_configs:\n");
        for (String job : new String[] {"ingress-gateway", "stock-stream", "order-writer", "reconciler"})
            config.append("  - job_name: ")
                    .append(job)
                    .append("\n    static_configs: [{targets: ['127.0.0.1:")
                    .append(job.equals("ingress-gateway") ? gateway : target)
                    .append("']}]\n");
        Files.writeString(dir.resolve("prometheus.yml"), config.toString());
        return new ProcessBuilder(
                        binary.toString(),
                        "--config.file=" + dir.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .redirectInput(new File("/dev/null"))
                .start();
    }

    /** The firing alerts as {@code name{label=value,...}} (severity left out), from Prometheus' API. */
    private Set<String> firing(int port) throws Exception {
        Set<String> out = new TreeSet<>();
        for (JsonNode a :
                Json.MAPPER.readTree(get(port, "/api/v1/alerts")).path("data").path("alerts")) {
            if (!a.path("state").asText().equals("firing")) continue;
            StringBuilder b =
                    new StringBuilder(a.path("labels").path("alertname").asText()).append('{');
            TreeSet<String> labels = new TreeSet<>();
            a.path("labels").fields().forEachRemaining(e -> {
                if (!Set.of("alertname", "severity").contains(e.getKey()))
                    labels.add(e.getKey() + "=" + e.getValue().asText());
            });
            out.add(b.append(String.join(",", labels)).append('}').toString());
        }
        return out;
    }

    /** The rule groups have been evaluated at least once (so "nothing firing" means something). */
    private boolean rulesEvaluated(int port) throws Exception {
        for (JsonNode g :
                Json.MAPPER.readTree(get(port, "/api/v1/rules")).path("data").path("groups"))
            if (g.path("lastEvaluation").asText().startsWith("0001")) return false;
        return true;
    }

    private String get(int port, String path) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
