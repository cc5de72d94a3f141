package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.observability.MetricsServer;
import dev.seckill.stack.KafkaFixture;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway's metrics are not on its public port ("deploy for real"): given a gateway, its public port answers the
 * kubelet's {@code /health} and {@code /live} but 404 on {@code /metrics}; its admin port
 * ({@code SECKILL_GATEWAY_METRICS_PORT} on {@code SECKILL_ADMIN_HOST}, as the other services' metrics ports) answers
 * {@code /metrics} with the gateway's own series and the JVM's, {@code /health} and {@code /live}; it listens on the
 * admin host, not the public one; and a taken admin port stops the start, naming it.
 */
class GatewayAdminPortTest {
    static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final String ns = "gwa-" + UUID.randomUUID().toString().substring(0, 8);
    final PrometheusMeterRegistry registry = MetricsServer.newRegistry(); // as ServiceMain gives the service

    Settings settings(String... more) {
        Map<String, String> m = new HashMap<>(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                ns + ".",
                Settings.REDIS_PREFIX,
                ns + ":",
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "gateway.auth.enabled",
                "false"));
        for (int i = 0; i < more.length; i += 2) m.put(more[i], more[i + 1]);
        return Settings.with(m);
    }

    @AfterEach
    void cleanUp() throws Exception {
        registry.close();
        TestGateways.removeNamespace(settings()); // its topics and its Redis keys
    }

    @Test
    void metricsAnswerOnlyOnTheAdminPort_theProbesOnBoth() throws Exception {
        try (GatewayApp gateway = TestGateways.started(settings(), registry)) {
            assertThat(gateway.metricsPort()).isPositive().isNotEqualTo(gateway.port());
            // a refused purchase: the gateway's own request counter has a sample
            HttpResponse<String> refused = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/purchases"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"goodsId\":1}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(400);

            assertThat(get("127.0.0.1", gateway.port(), "/metrics").statusCode())
                    .as("the public port does not serve /metrics")
                    .isEqualTo(404);
            HttpResponse<String> metrics = get("127.0.0.1", gateway.metricsPort(), "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
            assertThat(metrics.body())
                    .contains("seckill_gateway_requests_total{", "jvm_memory_used_bytes{", "kafka_producer_");

            for (int port : new int[] {gateway.port(), gateway.metricsPort()}) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    HttpResponse<String> health = get("127.0.0.1", port, "/health");
                    assertThat(health.statusCode()).as("/health on " + port).isEqualTo(200);
                    assertThat(health.body()).contains("\"kafka\":\"UP\"", "\"status\":\"UP\"");
                });
                HttpResponse<String> live = get("127.0.0.1", port, "/live");
                assertThat(live.statusCode() + " " + live.body())
                        .as("/live on " + port)
                        .isEqualTo("200 {\"status\":\"ALIVE\"}");
            }
        }
    }

    /** 127.0.0.2 is loopback too on Linux: an address the public port does not listen on. */
    @Test
    void theAdminPortListensOnTheAdminHost() throws Exception {
        try (GatewayApp gateway = TestGateways.started(settings("admin.host", "127.0.0.2"), registry)) {
            assertThat(get("127.0.0.2", gateway.metricsPort(), "/metrics").statusCode())
                    .isEqualTo(200);
            assertThat(get("127.0.0.2", gateway.metricsPort(), "/live").statusCode())
                    .isEqualTo(200);
            assertThatThrownBy(() -> get("127.0.0.1", gateway.metricsPort(), "/metrics"))
                    .as("nothing on the public host's address at the admin port")
                    .isInstanceOf(ConnectException.class);
            assertThat(get("127.0.0.1", gateway.port(), "/live").statusCode())
                    .as("the public port stays on SECKILL_GATEWAY_HOST")
                    .isEqualTo(200);
            assertThatThrownBy(() -> get("127.0.0.2", gateway.port(), "/live"))
                    .as("and not on the admin host")
                    .isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void aTakenAdminPortStopsTheStart_namingIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            GatewayApp gateway =
                    new GatewayApp(settings("gateway.metrics.port", Integer.toString(taken.getLocalPort())), registry);
            try {
                assertThatThrownBy(gateway::start)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("gateway admin")
                        .hasMessageContaining("cannot listen on 127.0.0.1:" + taken.getLocalPort());
            } finally {
                gateway.close();
            }
        }
    }

    static HttpResponse<String> get(String host, int port, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
