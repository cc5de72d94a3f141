package dev.seckill.kit.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.warmup.Readiness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code /health} on a service's metrics port follows its readiness: 503 starting, 503 warming, then 200 UP;
 * {@code /live} is 200 from the first moment (liveness never waits on a start or a dependency); the server binds the
 * address it is given (loopback by default, every interface in a container).
 */
@Tag("fast")
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
    void liveAnswersWhileTheServiceIsStillStarting() throws Exception {
        Readiness readiness = new Readiness(Readiness.State.STARTING);
        try (MetricsServer server = MetricsServer.start(MetricsServer.newRegistry(), 0, readiness)) {
            assertThat(get(server, "/live")).isEqualTo("200 {\"status\":\"ALIVE\"}");
            assertThat(health(server)).startsWith("503");
        }
    }

    @Test
    void bindsTheAddressItIsGiven() throws Exception {
        try (MetricsServer loopback = MetricsServer.start(MetricsServer.newRegistry(), 0);
                MetricsServer everywhere = MetricsServer.start(MetricsServer.newRegistry(), "0.0.0.0", 0, null)) {
            assertThat(loopback.address().getAddress().isLoopbackAddress()).isTrue();
            assertThat(everywhere.address().getAddress().isAnyLocalAddress()).isTrue();
            assertThat(get(everywhere, "/live")).startsWith("200"); // reached here on loopback, as every address
        }
    }

    @Test
    void withoutReadinessThereIsNoHealthRoute() throws Exception {
        try (MetricsServer server = MetricsServer.start(MetricsServer.newRegistry(), 0)) {
            assertThat(health(server)).startsWith("404");
        }
    }

    static String health(MetricsServer server) throws Exception {
        return get(server, "/health");
    }

    static String get(MetricsServer server, String path) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }
}
