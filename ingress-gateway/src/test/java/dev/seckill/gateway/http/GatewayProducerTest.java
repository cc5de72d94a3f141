package dev.seckill.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The gateway's producer as it is configured: every purchase acknowledged by all replicas, once, compressed in
 * batches large enough that opening an lz4 frame (a 64 KB buffer, a hash) is not paid every few dozen purchases on
 * the event loop that fills the batch (docs/performance.md, "What limits each").
 */
@Tag("fast")
class GatewayProducerTest {
    @Test
    void purchasesAreAcknowledgedByAllOnceAndBatchedInFramesOf128Kb() {
        Map<String, Object> p = GatewayProducer.config(Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, "127.0.0.1:9")));

        assertThat(p.get(ProducerConfig.ACKS_CONFIG)).isEqualTo("all");
        assertThat(p.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)).isEqualTo(true);
        assertThat(p.get(ProducerConfig.COMPRESSION_TYPE_CONFIG)).isEqualTo("lz4");
        assertThat(p.get(ProducerConfig.BATCH_SIZE_CONFIG)).isEqualTo(128 * 1024);
    }
}
