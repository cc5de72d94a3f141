package dev.seckill.infra.harness;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The producer a benchmark preloads its topics with: the pipeline's reliable producer (acks=all, idempotent) in
 * large lz4 batches lingering 20 ms, so that a million records go in seconds, not minutes.
 */
public final class PreloadProducer {
    private PreloadProducer() {}

    public static KafkaProducer<String, byte[]> create(Settings settings) {
        return ReliableProducers.create(
                settings,
                Map.of(
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024,
                        ProducerConfig.COMPRESSION_TYPE_CONFIG,
                        "lz4"));
    }
}
