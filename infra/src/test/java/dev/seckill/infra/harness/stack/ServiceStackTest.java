package dev.seckill.infra.harness.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.ServerProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code up --services --monitoring} on the real stack: the four services start as processes of their own (on spare
 * ports, in a namespace of this test), each answers {@code /health}, {@code status} says UP, the Prometheus it starts
 * scrapes all four with the shipped rules loaded (the gateway on its admin port: its public one answers /metrics 404),
 * and {@code down} stops every one of them.
 */
@Tag("light")
class ServiceStackTest {
    @TempDir
    Path home;

    @Test
    void theFourServicesRunAsProcessesPrometheusScrapesThemAndDownStopsThem() throws Exception {
        assumeTrue(Files.isExecutable(Monitoring.BINARY), "no prometheus here: skipped");
        int prometheusPort = ServerProcess.freePort(); // never 9095: a stack of the user's may hold it
        Settings base = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()));
        Namespace ns =
                Namespace.create(base, "svc-" + UUID.randomUUID().toString().substring(0, 6));
        Map<String, String> ports = new HashMap<>();
        for (ServiceStack.Service s : ServiceStack.ALL)
            ports.put(s.port().name(), Integer.toString(ServerProcess.freePort()));
        ports.put(
                GatewaySettings.PORT.name(),
                Integer.toString(ServerProcess.freePort())); // its public port; s.port() its admin one
        Settings settings = ns.settings().and(ports);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ServiceStack stack = new ServiceStack(settings, home, out, prometheusPort);
        try {
            stack.up(true, Map.of("SECKILL_GATEWAY_WARMUP_REQUESTS", "0", "SECKILL_STREAM_WARMUP_COMMANDS", "0"));

            List<Component> components = stack.components();
            assertThat(components).as(bytes.toString(StandardCharsets.UTF_8)).allMatch(Component::up);
            String printed =
                    String.join("\n", components.stream().map(Component::line).toList());
            for (ServiceStack.Service s : ServiceStack.ALL)
                assertThat(printed).contains(s.name()).contains(":" + settings.get(s.port()));
            HttpClient http = HttpClient.newHttpClient();
            int gatewayPort = settings.get(GatewaySettings.PORT);
            assertThat(get(http, gatewayPort, "/live"))
                    .as("the gateway's public port")
                    .isEqualTo(200);
            assertThat(get(http, gatewayPort, "/metrics"))
                    .as("no /metrics there")
                    .isEqualTo(404);
            assertThat(get(http, settings.get(GatewaySettings.METRICS_PORT), "/metrics"))
                    .as("the gateway's admin port")
                    .isEqualTo(200);
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
                JsonNode targets = Json.MAPPER
                        .readTree(http.send(
                                        HttpRequest.newBuilder(URI.create(
                                                        "http://127.0.0.1:" + prometheusPort + "/api/v1/targets"))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .body())
                        .path("data")
                        .path("activeTargets");
                assertThat(targets).hasSize(4);
                targets.forEach(t ->
                        assertThat(t.path("health").asText()).as(t.toString()).isEqualTo("up"));
            });
            String rules = http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + prometheusPort + "/api/v1/rules"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(rules).contains("SeckillServiceDown").contains("SeckillStockDrift");
        } finally {
            stack.down();
            new Namespaces(base).clean(ns.name());
        }
        for (ServiceStack.Service s : ServiceStack.ALL) {
            assertThat(ServerProcess.answers("127.0.0.1", settings.get(s.port())))
                    .as(s.name())
                    .isFalse();
            assertThat(Files.exists(home.resolve("services").resolve(s.name() + ".pid")))
                    .isFalse();
        }
        assertThat(ServerProcess.answers("127.0.0.1", prometheusPort)).isFalse();
    }

    private static int get(HttpClient http, int port, String path) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
