package dev.seckill.order.consume;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import dev.seckill.order.OrderWriterSettings;
import dev.seckill.order.write.DeadLetter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The writer's DLQ counter is scraped at 0 before its first dead letter: Prometheus' {@code increase()} sees nothing of
 * a series born at 1, so {@code SeckillDlqGrowing} missed the first record a running writer dead-lettered.
 */
@Tag("fast")
class DeadLetterCountTest {
    static final String SERIES = "seckill_dlq_records_total{source=\"order-writer\"}";

    @Test
    void givenAWriterThatDeadLetteredNothing_whenScraped_thenItsDlqSeriesIsThereAtZero_andCountsTheFirstRecord() {
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        DeadLetterWriter writer = new DeadLetterWriter(
                new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer()),
                "t.dlq",
                OrderWriterSettings.from(Settings.with(Map.of())),
                metrics);

        assertThat(metrics.scrape()).contains(SERIES + " 0.0");

        writer.send(new DeadLetter(
                new ConsumerRecord<>("t.ledger", 0, 3, "1001", "{".getBytes(StandardCharsets.UTF_8)), "unreadable"));
        assertThat(metrics.scrape()).contains(SERIES + " 1.0");
    }
}
