package dev.seckill.kit.kafka;

import dev.seckill.kit.config.Settings;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The one producer configuration of everything that writes the pipeline's topics outside a Streams transaction: acks=all
 * and idempotent (a command, outcome or DLQ record is acknowledged only once every in-sync replica has it, and a retried
 * send is not appended twice). What a caller adds (linger, timeouts, compression) is passed explicitly; acks and
 * idempotence cannot be overridden.
 */
public final class ReliableProducers {
    private ReliableProducers() {}

    /** The configuration: the connection ({@link KafkaClients}), {@code extra}, then acks=all, enable.idempotence=true. */
    public static Map<String, Object> config(Settings settings, Map<String, Object> extra) {
        for (String fixed : new String[] {
            ProducerConfig.ACKS_CONFIG,
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG
        }) {
            if (extra.containsKey(fixed)) throw new IllegalArgumentException(fixed + " is not the caller's to set");
        }
        Map<String, Object> p = new HashMap<>(KafkaClients.config(settings, extra));
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return p;
    }

    /** A String-keyed, byte-valued producer (the services' codecs encode the values themselves). */
    public static KafkaProducer<String, byte[]> create(Settings settings) {
        return create(settings, Map.of());
    }

    public static KafkaProducer<String, byte[]> create(Settings settings, Map<String, Object> extra) {
        return new KafkaProducer<>(config(settings, extra), new StringSerializer(), new ByteArraySerializer());
    }
}
