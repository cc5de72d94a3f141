package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.RedisServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * Given a gateway whose status store is complete and whose indexer has nothing to write, when the store's Redis (a
 * redis-server of this test's own) stops, then the store is not complete ({@code seckill_gateway_status_complete} 0,
 * what {@code SeckillStatusStoreIncomplete} reads), and once Redis is back it is complete again. Regression: an idle
 * indexer's check failed before it could say so, and the gauge stayed 1 for as long as Redis was down.
 */
class StatusStoreCompletenessTest {
    @Test
    void givenAnIdleCompleteStore_whenItsRedisStops_thenItIsNotComplete_andWhenRedisIsBack_thenCompleteAgain() {
        String ns = "sc-" + UUID.randomUUID().toString().substring(0, 8);
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
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (GatewayApp gateway = new GatewayApp(settings, metrics).start()) {
            await().atMost(Duration.ofSeconds(30)).until(gateway::statusComplete);
            assertThat(metrics.scrape()).contains("seckill_gateway_status_complete 1.0");

            redis.stop();
            await().atMost(Duration.ofSeconds(10)).until(() -> !gateway.statusComplete());
            assertThat(metrics.scrape()).contains("seckill_gateway_status_complete 0.0");

            redis.start(); // empty: the indexer finds what it wrote gone and rebuilds
            await().atMost(Duration.ofSeconds(30)).until(gateway::statusComplete);
        } finally {
            redis.close();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", KafkaFixture.bootstrap()))) {
                admin.deleteTopics(new Topics(ns + ".").all()).all().get();
            } catch (Exception e) {
                throw new IllegalStateException("could not delete the test's topics", e);
            }
        }
    }
}
