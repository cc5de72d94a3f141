package dev.seckill.gateway.http;

import dev.seckill.contracts.config.Settings;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The gateway's one Kafka producer: acks=all, idempotent, every wait bounded by the gateway's Kafka timeout. */
public final class GatewayProducer {
    private GatewayProducer() {}

    public static KafkaProducer<String, byte[]> create(Settings settings) {
        int ackTimeoutMs = settings.getInt("gateway.kafka.timeout.ms", 3000);
        Map<String, Object> p = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafkaBootstrap(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, settings.getInt("gateway.linger.ms", 2),
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(ackTimeoutMs - 500, 500),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, ackTimeoutMs,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, settings.getInt("gateway.max.block.ms", 500),
                ProducerConfig.BUFFER_MEMORY_CONFIG, settings.getLong("gateway.buffer.bytes", 64L * 1024 * 1024),
                // lz4: without compression the broker does more work per command, and the bench lost 10-25%
                ProducerConfig.COMPRESSION_TYPE_CONFIG, settings.get("gateway.compression", "lz4"));
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
