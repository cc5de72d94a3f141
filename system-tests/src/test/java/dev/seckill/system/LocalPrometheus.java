package dev.seckill.system;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.stack.ServerProcess;
import java.io.File;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Debian's Prometheus on a spare loopback port with {@code monitoring/alerts.yml} as shipped except every {@code for:}
 * cut to 1 s (the durations have their own promtool unit tests), scraping and evaluating every second. Each of the four
 * jobs scrapes the targets a test names ({@link #scrape}: file-based discovery, so one Prometheus serves a whole test
 * class, each scenario pointing the jobs at its own services' {@code /metrics}, {@link #forgetAll} at its end).
 */
final class LocalPrometheus implements AutoCloseable {
    static final Path MONITORING = Path.of("..", "monitoring").toAbsolutePath().normalize();
    static final List<String> JOBS = List.of("ingress-gateway", "stock-stream", "order-writer", "reconciler");

    private final HttpClient http = HttpClient.newHttpClient();
    private final Path dir;
    private final int port;
    private final Process process;

    private LocalPrometheus(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /** Started and ready, its rules evaluated once; the test is skipped where there is no Prometheus. */
    static LocalPrometheus start(Path dir) throws Exception {
        Path binary = Path.of("/usr/bin/prometheus");
        assumeTrue(Files.isExecutable(binary), "no prometheus here (apt-get install prometheus): skipped");
        String rules = Files.readString(MONITORING.resolve("alerts.yml")).replaceAll("for: \\w+", "for: 1s");
        Files.writeString(dir.resolve("alerts.yml"), rules);
        StringBuilder config = new StringBuilder("global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
                + "rule_files: [alerts.yml]\nscrape_configs:\n");
        Files.createDirectories(dir.resolve("targets"));
        for (String job : JOBS) {
            config.append("  - job_name: ").append(job).append('\n');
            config.append("    file_sd_configs: [{files: ['targets/")
                    .append(job)
                    .append(".json'], refresh_interval: 1s}]\n");
        }
        Files.writeString(dir.resolve("prometheus.yml"), config.toString());
        int port = ServerProcess.freePort();
        Process process = new ProcessBuilder(
                        binary.toString(),
                        "--config.file=" + dir.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .redirectInput(new File("/dev/null"))
                .start();
        LocalPrometheus prometheus = new LocalPrometheus(dir, port, process);
        prometheus.forgetAll();
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> prometheus.get("/-/ready").contains("Ready"));
        await().atMost(Duration.ofSeconds(30)).until(prometheus::rulesEvaluated);
        return prometheus;
    }

    /** The job scrapes these ports on loopback from now on (none: nothing). */
    void scrape(String job, int... ports) throws Exception {
        String targets =
                Arrays.stream(ports).mapToObj(p -> "\"127.0.0.1:" + p + "\"").collect(Collectors.joining(","));
        Path file = dir.resolve("targets").resolve(job + ".json");
        Path next = dir.resolve("targets").resolve(job + ".next");
        Files.writeString(next, "[{\"targets\": [" + targets + "], \"labels\": {\"service\": \"" + job + "\"}}]");
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** No job scrapes anything: a scenario's series go stale (its rate windows still hold what it did). */
    void forgetAll() throws Exception {
        for (String job : JOBS) scrape(job);
    }

    /** Waits until a scrape of {@code port} has stored {@code series} (a selector) with a value that matches. */
    void awaitScraped(int port, String series, double value) {
        String selector = series.contains("{")
                ? series.replace("{", "{instance=\"127.0.0.1:" + port + "\",")
                : series + "{instance=\"127.0.0.1:" + port + "\"}";
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> query(selector).contains(value));
    }

    /** The values of an instant query (one per series). */
    List<Double> query(String promql) throws Exception {
        JsonNode result = Json.MAPPER
                .readTree(get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                .path("data")
                .path("result");
        return StreamSupport.stream(result.spliterator(), false)
                .map(r -> Double.parseDouble(r.path("value").get(1).asText()))
                .toList();
    }

    /** The firing alerts as {@code name{label=value,...}} (severity left out), from Prometheus' API. */
    Set<String> firing() throws Exception {
        return firingValues().keySet();
    }

    /** The value of a firing alert named as {@link #firing} names it (its expression's value when it last fired). */
    double alertValue(String alert) throws Exception {
        Double value = firingValues().get(alert);
        if (value == null) throw new AssertionError(alert + " does not fire: " + firing());
        return value;
    }

    private Map<String, Double> firingValues() throws Exception {
        Map<String, Double> out = new TreeMap<>();
        for (JsonNode a :
                Json.MAPPER.readTree(get("/api/v1/alerts")).path("data").path("alerts")) {
            if (!a.path("state").asText().equals("firing")) continue;
            StringBuilder b =
                    new StringBuilder(a.path("labels").path("alertname").asText()).append('{');
            TreeSet<String> labels = new TreeSet<>();
            a.path("labels").fields().forEachRemaining(e -> {
                if (!Set.of("alertname", "severity").contains(e.getKey()))
                    labels.add(e.getKey() + "=" + e.getValue().asText());
            });
            out.put(
                    b.append(String.join(",", labels)).append('}').toString(),
                    a.path("value").asDouble());
        }
        return out;
    }

    /** Whether an alert of this name fires, whatever its labels. */
    boolean fires(String alert) throws Exception {
        return firing().stream().anyMatch(a -> a.startsWith(alert + "{"));
    }

    /** The rule groups have been evaluated at least once (so "nothing firing" means something). */
    boolean rulesEvaluated() throws Exception {
        for (JsonNode g :
                Json.MAPPER.readTree(get("/api/v1/rules")).path("data").path("groups"))
            if (g.path("lastEvaluation").asText().startsWith("0001")) return false;
        return true;
    }

    private String get(String path) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        process.waitFor(20, TimeUnit.SECONDS);
    }
}
