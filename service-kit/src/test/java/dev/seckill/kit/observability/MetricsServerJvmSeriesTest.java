package dev.seckill.kit.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every service's {@code /metrics} carries the JVM's and the process's own series: a heap filling, a GC
 * storm or a thread leak shows beside the service's latency, from the registry every service starts with.
 */
@Tag("fast")
class MetricsServerJvmSeriesTest {
    static final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aServicesMetricsShowItsJvmAndItsProcess() throws Exception {
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        try (MetricsServer server = MetricsServer.start(registry, 0)) {
            assertThat(metrics(server))
                    .contains(
                            "jvm_memory_used_bytes{",
                            "jvm_memory_max_bytes{",
                            "jvm_buffer_memory_used_bytes{",
                            "jvm_gc_memory_allocated_bytes_total",
                            "jvm_threads_live_threads",
                            "jvm_classes_loaded_classes",
                            "process_cpu_usage",
                            "system_cpu_count",
                            "process_uptime_seconds",
                            "process_start_time_seconds",
                            "process_files_open_files");

            System.gc(); // a collection the GC listener hears of: its pause is a series
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(metrics(server)).contains("jvm_gc_pause_seconds_count{"));
        } finally {
            registry.close();
        }
    }

    static String metrics(MetricsServer server) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }
}
