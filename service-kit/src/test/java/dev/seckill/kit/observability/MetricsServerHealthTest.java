package dev.seckill.kit.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.warmup.Readiness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** {@code /health} on a service's metrics port follows its readiness: 503 starting, 503 warming, then 200 UP. */
class MetricsServerHealthTest {
    static final HttpClient http = HttpClient.newHttpClient();

    @Test
    void healthIsNotReadyUntilTheWarmUpIsDone() throws Exception {
        Readiness readiness = new Readiness(Readiness.State.STARTING);
        try (MetricsServer server = MetricsServer.start(MetricsServer.newRegistry(), 0, readiness)) {
            assertThat(health(server)).isEqualTo("503 {\"status\":\"starting\"}");
            readiness.warming();
            assertThat(health(server)).isEqualTo("503 {\"status\":\"warming\"}");
            readiness.up();
            assertThat(health(server)).isEqualTo("200 {\"status\":\"UP\"}");
        }
    }

    @Test
    void withoutReadinessThereIsNoHealthRoute() throws Exception {
        try (MetricsServer server = MetricsServer.start(MetricsServer.newRegistry(), 0)) {
            assertThat(health(server)).startsWith("404");
        }
    }

    static String health(MetricsServer server) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }
}
