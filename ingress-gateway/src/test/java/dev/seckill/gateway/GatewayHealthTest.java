package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.RedisServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * Given a gateway serving with its own Redis, when that Redis goes away, then the gateway stays ready ({@code /health}
 * 200, Redis reported DOWN: purchases go on without it, so an outage must not take every gateway out of its Service)
 * and alive ({@code /live} 200).
 */
class GatewayHealthTest {
    static final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aRedisOutageLeavesTheGatewayReadyAndAlive() throws Exception {
        String ns = "gh-" + UUID.randomUUID().toString().substring(0, 8);
        RedisServer redis = RedisServer.onFreePort().start();
        Settings settings = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                ns + ".",
                Settings.REDIS_PREFIX,
                ns + ":",
                Settings.REDIS_URL,
                redis.url(),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "gateway.auth.enabled",
                "false"));
        try (GatewayApp gateway =
                new GatewayApp(settings, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start()) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> get(gateway, "/health").startsWith("200"));

            redis.stop();

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> get(gateway, "/health").contains("\"redis\":\"DOWN\""));
            assertThat(get(gateway, "/health")).startsWith("200").contains("\"status\":\"UP\"");
            assertThat(get(gateway, "/live")).isEqualTo("200 {\"status\":\"ALIVE\"}");
        } finally {
            redis.close();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
                admin.deleteTopics(new Topics(ns + ".").all()).all().get();
            }
        }
    }

    static String get(GatewayApp gateway, String path) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }
}
