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
import java.util.Set;
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
