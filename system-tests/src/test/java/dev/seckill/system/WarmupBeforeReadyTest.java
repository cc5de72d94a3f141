package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.gateway.GatewayApp;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Sales;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.observability.MetricsServer;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.kit.warmup.Readiness;
import dev.seckill.stock.StockStreamApp;
import dev.seckill.stock.StreamWarmup;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;

/**
 * The gateway and stock-stream warm themselves before they report ready — {@code /health} says
 * {@code warming} (503), then UP — and the warm-up leaves nothing in the sale's world: no Redis key in the namespace,
 * no record on any real topic, none of its own topics left. A purchase right after ready is decided SUCCESS.
 */
class WarmupBeforeReadyTest {
    static final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servicesWarmThemselvesWithoutTouchingTheSale_thenAPurchaseSucceeds() throws Exception {
        String secret = UUID.randomUUID() + "-" + UUID.randomUUID();
        Namespace ns = TestNamespaces.create(
                TestNamespaces.inProcess(2, Map.of("gateway.auth.secret", secret, "stream.threads", "1")),
                "warm-" + UUID.randomUUID().toString().substring(0, 8));
        Settings s = ns.settings();
        Topics topics = new Topics(s.topicPrefix());
        Readiness streamReadiness = new Readiness(Readiness.State.STARTING);
        var registry = MetricsServer.newRegistry();
        try (StockStreamApp stream = new StockStreamApp(s, registry).start();
                MetricsServer streamHealth = MetricsServer.start(registry, 0, streamReadiness);
                UnifiedJedis redis = RedisConnections.open(s)) {
            assertThat(get(streamHealth.port(), "/health").statusCode())
                    .as("not ready before it runs")
                    .isEqualTo(503);
            stream.awaitRunning(Duration.ofSeconds(60));
            StreamWarmup.inBackground(s, 3_000, streamReadiness);
            try (GatewayApp gateway =
                    new GatewayApp(s, MetricsServer.newRegistry()).start().warmUpInBackground(5_000)) {
                HttpResponse<String> warming = get(gateway.port(), "/health");
                assertThat(warming.statusCode()).isEqualTo(503);
                assertThat(warming.body()).contains("\"status\":\"warming\"");
                HttpResponse<String> streamWarming = get(streamHealth.port(), "/health");
                assertThat(streamWarming.statusCode()).isEqualTo(503);
                assertThat(streamWarming.body()).contains("warming");

                await().atMost(Duration.ofMinutes(4))
                        .pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> {
                            assertThat(get(gateway.port(), "/health").body()).contains("\"status\":\"UP\"");
                            assertThat(get(streamHealth.port(), "/health").statusCode())
                                    .isEqualTo(200);
                        });
                assertThat(get(gateway.port(), "/health").statusCode()).isEqualTo(200);

                assertThat(keysUnder(redis, s.redisPrefix()))
                        .as("the warm-up left no Redis key in the namespace (the real status index's progress is the"
                                + " gateway's own)")
                        .allMatch(k -> k.equals(s.redisPrefix() + "status:index")
                                || k.equals(s.redisPrefix() + "status:ready"));
                assertThat(records(s, topics.all()))
                        .as("no record on any real topic (commands, outcomes, ledger, ...)")
                        .isZero();
                assertThat(topicsUnder(s, s.topicPrefix() + "warmup-"))
                        .as("the warm-ups deleted their topics")
                        .isEmpty();

                long goods = 7001;
                Instant now = Instant.now();
                Sales.open(
                        s,
                        Sales.started(goods, 10, Duration.ofMinutes(10), 1, "open-" + goods),
                        Duration.ofSeconds(60));
                HttpResponse<String> bought = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/purchases"))
                                .header("Content-Type", "application/json")
                                .header("Prefer", "wait=10")
                                .header(
                                        "Authorization",
                                        "Bearer " + new Jwt(secret, Clock.systemUTC()).mint(42, now.plusSeconds(600)))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"goodsId\":" + goods + ",\"quantity\":1}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(bought.statusCode()).isEqualTo(200);
                assertThat(bought.body()).contains("\"status\":\"SUCCESS\"");
            }
        } finally {
            ns.deleteTopics();
            ns.deleteRedisKeys();
        }
    }

    static HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static List<String> keysUnder(UnifiedJedis redis, String prefix) {
        List<String> found = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            var page = redis.scan(cursor, new ScanParams().match(prefix + "*").count(1000));
            found.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return found;
    }

    static long records(Settings s, List<String> topics) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, s.kafkaBootstrap()))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(topics)
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .forEach((name, d) -> d.partitions()
                            .forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
            return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                    .mapToLong(i -> i.offset())
                    .sum();
        }
    }

    static List<String> topicsUnder(Settings s, String prefix) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, s.kafkaBootstrap()))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(prefix))
                    .toList();
        }
    }
}
