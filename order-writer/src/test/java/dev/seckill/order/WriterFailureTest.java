package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.observability.MetricsServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A consumer loop that ends on an error is fatal: health DOWN and a non-zero exit, after the DLQ sends were retried. */
class WriterFailureTest {
    final WriterStack stack = new WriterStack(3);

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    @Test
    void whenTheDlqCannotBeWritten_theSendIsRetried_thenHealthIsDownAndTheProcessExitsNonZero() throws Exception {
        // the DLQ exists but takes no record (every batch is larger than 1 byte): each send fails at once
        stack.admin
                .incrementalAlterConfigs(Map.of(
                        new ConfigResource(ConfigResource.Type.TOPIC, stack.topics.dlq()),
                        List.of(new AlterConfigOp(
                                new ConfigEntry("max.message.bytes", "1"), AlterConfigOp.OpType.SET))))
                .all()
                .get(30, TimeUnit.SECONDS);
        RecordMetadata poison =
                stack.send(stack.topics.ledger(), "1001", "{\"type\":".getBytes(StandardCharsets.UTF_8));

        CompletableFuture<Integer> exit = new CompletableFuture<>();
        PrometheusMeterRegistry metrics = MetricsServer.newRegistry();
        try (OrderWriterApp app = new OrderWriterApp(
                                stack.settings.and(Map.of("writer.dlq.attempts", "3", "writer.dlq.backoff.ms", "50")),
                                metrics,
                                exit::complete)
                        .start();
                StatusServer status = StatusServer.start(metrics, app::health, 0)) {
            assertThat(exit.get(120, TimeUnit.SECONDS)).as("exit status").isNotZero();
            assertThat(metrics.get("seckill_writer_dlq_send_failures").counter().count())
                    .as("bounded retries")
                    .isEqualTo(3);
            assertThat(metrics.get("seckill_writer_fatal").counter().count()).isEqualTo(1);
            assertThat(app.health().up()).isFalse();
            assertThat(app.health().detail()).contains("DLQ");
            HttpResponse<String> health = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + status.port() + "/health"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.body()).contains("\"status\":\"DOWN\"");
            assertThat(metrics.scrape()).contains("seckill_writer_up 0.0");
        }
        // the poison's batch was never committed: whoever consumes next gets it again
        Map<TopicPartition, OffsetAndMetadata> committed = stack.admin
                .listConsumerGroupOffsets(GroupIds.orderWriter(stack.settings))
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        OffsetAndMetadata at = committed.get(new TopicPartition(poison.topic(), poison.partition()));
        assertThat(at == null || at.offset() <= poison.offset())
                .as("committed %s, poison at %d", at, poison.offset())
                .isTrue();
    }

    @Test
    void aHealthyWriterIsUp() throws Exception {
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        PrometheusMeterRegistry metrics = MetricsServer.newRegistry();
        try (OrderWriterApp app = new OrderWriterApp(stack.settings, metrics, exit::complete).start();
                StatusServer status = StatusServer.start(metrics, app::health, 0)) {
            HttpResponse<String> health = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + status.port() + "/health"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"");
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> !exit.isDone());
        }
        assertThat(exit).as("a plain close is not a failure").isNotDone();
    }
}
