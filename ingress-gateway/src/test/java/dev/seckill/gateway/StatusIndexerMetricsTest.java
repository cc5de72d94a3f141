package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code SeckillOutcomesStuckPending} reads the status indexer's lag,
 * {@code kafka_consumer_fetch_manager_records_lag_max} of a client whose id matches its selector. The gateway's
 * {@code /metrics} (on its admin port) has that series once the indexer runs (it had none: the alert could never fire), and drops it when
 * the gateway closes. The selector is read from monitoring/alerts.yml, so the alert and the client id cannot part.
 */
class StatusIndexerMetricsTest {
    static final String LAG = "kafka_consumer_fetch_manager_records_lag_max";
    static final HttpClient http = HttpClient.newHttpClient();

    final String ns = "gwm-" + UUID.randomUUID().toString().substring(0, 8);
    final Settings settings = Settings.with(Map.of(
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
    final Topics topics = new Topics(ns + ".");

    @AfterEach
    void deleteTopics() throws Exception {
        TestGateways.removeNamespace(settings); // its topics and its Redis keys
    }

    @Test
    void theGatewayPublishesTheIndexersLag_underAClientIdTheAlertSelects() throws Exception {
        Pattern selector = Pattern.compile(alertSelector("SeckillOutcomesStuckPending"));
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (GatewayApp gateway = TestGateways.started(settings, metrics);
                KafkaProducer<String, byte[]> outcomes = new KafkaProducer<>(
                        Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            Instant at = Instant.now();
            outcomes.send(new ProducerRecord<>(
                            topics.outcome(OutcomeKind.SOLD_OUT),
                            "901",
                            OutcomeJson.encode(
                                    Outcome.of("m-1", 901, 9_001, 1, OutcomeKind.SOLD_OUT, null, 0, at, at, 0, 0))))
                    .get();

            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(lags(metrics(gateway)))
                            .as("%s of a client_id matching %s, with a value (the indexer fetched)", LAG, selector)
                            .anySatisfy(lag -> {
                                assertThat(lag.clientId()).matches(selector);
                                assertThat(lag.value()).isFinite().isGreaterThanOrEqualTo(0);
                            }));
        }
        assertThat(lags(metrics.scrape())).as("closed with its consumer").isEmpty();
    }

    record Lag(String clientId, double value) {}

    /** Every sample of the lag series in a scrape: its client_id and its value. */
    static List<Lag> lags(String scrape) {
        Pattern clientId = Pattern.compile("client_id=\"([^\"]*)\"");
        return scrape.lines()
                .filter(l -> l.startsWith(LAG + "{"))
                .map(l -> {
                    Matcher m = clientId.matcher(l);
                    return new Lag(m.find() ? m.group(1) : "", Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)));
                })
                .toList();
    }

    static String metrics(GatewayApp gateway) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.metricsPort() + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    /** The client_id regex of the alert's expression in monitoring/alerts.yml. */
    static String alertSelector(String alert) throws Exception {
        Path alerts = Path.of(System.getenv().getOrDefault("SECKILL_ROOT", ".."), "monitoring", "alerts.yml");
        String text = Files.readString(alerts);
        int from = text.indexOf("alert: " + alert);
        assertThat(from).as("%s in %s", alert, alerts).isNotNegative();
        Matcher m = Pattern.compile("expr: .*client_id=~\"([^\"]*)\"").matcher(text);
        assertThat(m.find(from)).as("the client_id selector of %s", alert).isTrue();
        return m.group(1);
    }
}
