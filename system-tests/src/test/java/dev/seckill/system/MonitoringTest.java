package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.order.db.Database;
import dev.seckill.reconcile.Reconciler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The monitoring that ships with the project ({@code monitoring/}): every metric its alerts and dashboard query is one
 * the services really expose (read from a real pipeline's {@code /metrics} after a small sale: the gateway's admin port,
 * which serves the pipeline's one registry; its public port answers 404), and Prometheus' own
 * tool accepts the configuration and the rules and passes the alerts' unit tests ({@code alerts.test.yml}).
 */
class MonitoringTest {
    static final Path DIR = Path.of("..", "monitoring").toAbsolutePath().normalize();
    static final Pattern METRIC = Pattern.compile("\\b((?:seckill|kafka)_[a-z0-9_]+)\\b");
    static Set<String> exposed;
    /** Each dashboard query → the series a real Prometheus returned for it; null where there is no Prometheus. */
    static Map<String, Integer> panelData;

    /** A small sale through the whole pipeline, with HTTP traffic, a payment and a reconcile cycle; then its metric names. */
    @BeforeAll
    static void scrapeARealPipeline() throws Exception {
        Settings settings = TestNamespaces.inProcess(2);
        Namespace ns = TestNamespaces.create(
                settings, "mon-" + UUID.randomUUID().toString().substring(0, 6));
        HttpClient http = HttpClient.newHttpClient();
        try (Pipeline p = new Pipeline(ns).start()) {
            p.openSale(5301, 2, Duration.ofHours(1), 1);
            for (int user = 1; user <= 3; user++) {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.gatewayPort() + "/api/purchases"))
                                .header("Content-Type", "application/json")
                                .header("Authorization", p.bearer(user))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"goodsId\":5301,\"userId\":" + user
                                        + ",\"requestId\":\"mon-" + user + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(r.body()).isIn(200, 202);
            }
            p.send(new Purchase("mon-direct", 5301, 9, 1, Instant.now()));
            try (var redis = RedisConnections.open(ns.settings());
                    var db = Database.open(ns.settings(), "mon");
                    var producer = ReliableProducers.create(ns.settings());
                    Reconciler r = new Reconciler(ns.settings(), db, redis, producer, p.metrics(), true)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    r.cycle(null);
                    return p.metrics().scrape().contains("seckill_reconcile_drift")
                            && p.metrics().scrape().contains("seckill_orders_written_total");
                });
            }
            panelData = Files.isExecutable(Path.of("/usr/bin/prometheus")) ? panelsInPrometheus(p) : null;
            // as Prometheus reads it: the gateway's admin port (the pipeline's one registry); its public port has none
            assertThat(get(p.gatewayPort()).statusCode()).isEqualTo(404);
            HttpResponse<String> scrape = get(p.gatewayMetricsPort());
            assertThat(scrape.statusCode()).isEqualTo(200);
            exposed = new TreeSet<>();
            for (String line : scrape.body().split("\n")) {
                if (!line.isEmpty() && !line.startsWith("#")) exposed.add(line.split("[{ ]", 2)[0]);
            }
        } finally {
            new Namespaces(settings).clean(ns.name());
        }
    }

    /**
     * Every dashboard query's series, as a real Prometheus answers it after scraping the pipeline's /metrics (the
     * gateway's admin port serves its one registry) long enough for each rate window to hold two samples; the goods
     * variable is every goods.
     */
    static Map<String, Integer> panelsInPrometheus(Pipeline p) throws Exception {
        Path dir = Files.createTempDirectory("seckill-dashboard-");
        Map<String, Integer> out = new TreeMap<>();
        try (LocalPrometheus prom = LocalPrometheus.start(dir)) {
            prom.scrape("stock-stream", p.gatewayMetricsPort()); // one job: each series once
            prom.awaitScraped(p.gatewayMetricsPort(), "seckill_goods_stock_left{goods=\"5301\"}", 0);
            // each query waits for its data: a rate window needs two samples, a quantile two of its buckets'
            for (String expr : dashboardQueries()) {
                String query = expr.replace("$goods", ".*");
                try {
                    out.put(
                            expr,
                            await().atMost(Duration.ofSeconds(20))
                                    .ignoreExceptions()
                                    .until(() -> prom.query(query).size(), n -> n > 0));
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    out.put(expr, 0); // never any series: the test names it
                }
            }
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            }
        }
        return out;
    }

    static List<String> dashboardQueries() throws Exception {
        List<String> exprs = new ArrayList<>();
        for (JsonNode panel : Json.MAPPER
                .readTree(Files.readString(DIR.resolve("dashboard.json")))
                .path("panels"))
            for (JsonNode t : panel.path("targets")) exprs.add(t.path("expr").asText());
        return exprs;
    }

    @Test
    void everyDashboardQueryReturnsDataFromARealPrometheusAfterASale() {
        assumeTrue(panelData != null, "no prometheus here (apt-get install prometheus): the panel queries are skipped");
        assertThat(panelData).as("the dashboard's queries").hasSizeGreaterThanOrEqualTo(10);
        assertThat(panelData.entrySet())
                .as("queries that returned no series")
                .filteredOn(e -> e.getValue() == 0)
                .isEmpty();
    }

    static HttpResponse<String> get(int port) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    static Set<String> metricsIn(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = METRIC.matcher(text);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    @Test
    void everyMetricTheAlertsQueryIsExposedByTheServices() throws Exception {
        List<String> exprs = new ArrayList<>();
        for (String line : Files.readAllLines(DIR.resolve("alerts.yml"))) {
            if (!line.strip().startsWith("#") && !line.contains("summary:") && !line.contains("runbook:"))
                exprs.add(line);
        }
        Set<String> queried = metricsIn(String.join("\n", exprs));
        assertThat(queried).as("the alerts query metrics").hasSizeGreaterThan(8);
        assertThat(exposed).as("metrics the alerts query, in a real /metrics").containsAll(queried);
    }

    @Test
    void everyMetricTheDashboardQueriesIsExposed_andEveryPanelHasAQuery() throws Exception {
        JsonNode dashboard = Json.MAPPER.readTree(Files.readString(DIR.resolve("dashboard.json")));
        assertThat(dashboard.path("panels")).hasSizeGreaterThanOrEqualTo(6);
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asText().equals("row")) continue; // a heading, not a panel
            assertThat(panel.path("targets")).as(panel.path("title").asText()).isNotEmpty();
            for (JsonNode t : panel.path("targets"))
                queried.addAll(metricsIn(t.path("expr").asText()));
        }
        assertThat(exposed)
                .as("metrics the dashboard queries, in a real /metrics")
                .containsAll(queried);
    }

    @Test
    void prometheusAcceptsTheConfigAndTheRules_andTheAlertsPassTheirUnitTests() throws Exception {
        Path promtool = Path.of("/usr/bin/promtool");
        assumeTrue(
                Files.isExecutable(promtool),
                "no promtool here (apt-get install prometheus): the rule checks are skipped");
        assertThat(run(
                        promtool.toString(),
                        "check",
                        "config",
                        DIR.resolve("prometheus.yml").toString()))
                .contains("SUCCESS");
        assertThat(run(
                        promtool.toString(),
                        "check",
                        "rules",
                        DIR.resolve("alerts.yml").toString()))
                .contains("SUCCESS");
        String tests = run(
                promtool.toString(),
                "test",
                "rules",
                DIR.resolve("alerts.test.yml").toString());
        assertThat(tests).contains("SUCCESS").doesNotContain("FAILED");
        // every alert has a unit test
        Set<String> alerts = new TreeSet<>();
        Matcher m = Pattern.compile("- alert: (\\w+)").matcher(Files.readString(DIR.resolve("alerts.yml")));
        while (m.find()) alerts.add(m.group(1));
        String testFile = Files.readString(DIR.resolve("alerts.test.yml"));
        assertThat(alerts)
                .isNotEmpty()
                .allSatisfy(a -> assertThat(testFile).as("a unit test of " + a).contains("alertname: " + a + "\n"));
    }

    static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ":\n" + out).isZero();
        return out;
    }
}
