package dev.seckill.gateway.http;

import dev.seckill.gateway.GatewaySettings;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The gateway's one Kafka producer: acks=all, idempotent, every wait bounded by the gateway's Kafka timeout. */
public final class GatewayProducer {
    private GatewayProducer() {}

    public static KafkaProducer<String, byte[]> create(Settings settings) {
        return new KafkaProducer<>(config(settings), new StringSerializer(), new ByteArraySerializer());
    }

    /** The producer's whole configuration: the connection, the gateway's own settings below, acks=all, idempotent. */
    public static Map<String, Object> config(Settings settings) {
        int ackTimeoutMs = settings.get(GatewaySettings.KAFKA_TIMEOUT_MS);
        // the acks=all, idempotent producer, with the gateway's own timeouts, batching and compression
        Map<String, Object> p = Map.of(
                ProducerConfig.LINGER_MS_CONFIG, settings.get(GatewaySettings.LINGER_MS),
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(ackTimeoutMs - 500, 500),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, ackTimeoutMs,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, settings.get(GatewaySettings.MAX_BLOCK_MS),
                ProducerConfig.BUFFER_MEMORY_CONFIG, settings.get(GatewaySettings.BUFFER_BYTES),
                // lz4: without compression the broker does more work per command, and the bench lost 10-25%
                ProducerConfig.COMPRESSION_TYPE_CONFIG, settings.get(GatewaySettings.COMPRESSION),
                // a batch opens an lz4 frame (a 64 KB buffer, a JNI hash of its header) on the event loop that fills
                // it: at Kafka's 16 KB one opened every few dozen purchases of a hot goods, and lz4 was 16-21% of the
                // event loops' samples; 128 KB as the stream has (closed loop 18-23k/s against 16-19k/s, CHANGELOG.md)
                ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        return ReliableProducers.config(settings, p);
    }
}
