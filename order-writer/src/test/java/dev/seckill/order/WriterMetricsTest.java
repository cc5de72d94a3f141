package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.observability.MetricsServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The writer's {@code /metrics} shows its connection pool ({@code hikaricp_connections_pending}, which the
 * runbook reads when the database is slow or locked) and its JVM, beside its own series.
 */
class WriterMetricsTest {
    final WriterStack stack = new WriterStack(1);

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    @Test
    void theWritersMetricsShowItsPoolAndItsJvm() throws Exception {
        PrometheusMeterRegistry metrics = MetricsServer.newRegistry();
        try (OrderWriterApp app = new OrderWriterApp(stack.settings, metrics, exitCode -> {}).start();
                StatusServer status = StatusServer.start(metrics, app::health, 0)) {
            HttpResponse<String> scraped = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + status.port() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());

            assertThat(scraped.statusCode()).isEqualTo(200);
            assertThat(scraped.body())
                    .contains(
                            "hikaricp_connections_pending{pool=\"order-writer\"}",
                            "hikaricp_connections_active{pool=\"order-writer\"}",
                            "hikaricp_connections_max{pool=\"order-writer\"}",
                            "hikaricp_connections_acquire_seconds_count{pool=\"order-writer\"}",
                            "jvm_memory_used_bytes{",
                            "process_uptime_seconds");
        } finally {
            metrics.close();
        }
    }
}
