package dev.seckill.stock;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * Kafka Streams' own clients, with one change: under exactly_once_v2 a stream thread's producer gets the transactional
 * id {@code <application.id>-<instance id>-<thread index>} instead of Streams' {@code <application.id>-<process
 * id>-<thread index>}, whose process id is a new random one at every start (our stores are in memory, so Streams does
 * not keep it in the state directory). A restarted instance then initialises the transactional id its predecessor
 * used: the broker bumps the epoch and aborts that open transaction at once, instead of after
 * {@code transaction.timeout.ms} and the broker's next abort check — 10 to 20 s during which read_committed readers
 * (the order-writer, the gateways) saw nothing past it and the restarted tasks could not finish restoring their
 * changelogs (docs/reliability.md). Only with an instance id of one process: two live processes given one id
 * fence each other's producers at every start, over and over (each instance its own: a pod name, {@code <host>-<metrics
 * port>}).
 */
final class StableTransactionalIds implements KafkaClientSupplier {
    private final KafkaClientSupplier clients = new DefaultKafkaClientSupplier();
    private final String applicationId;
    private final String instanceId;

    StableTransactionalIds(String applicationId, String instanceId) {
        this.applicationId = applicationId;
        this.instanceId = instanceId;
    }

    /** {@code <app>-<process id>-<n>} becomes {@code <app>-<instance id>-<n>}; any other id is left as it is. */
    String stable(String transactionalId) {
        String prefix = applicationId + "-";
        if (transactionalId == null || !transactionalId.startsWith(prefix)) return transactionalId;
        int dash = transactionalId.lastIndexOf('-');
        if (dash < prefix.length()) return transactionalId;
        return prefix + instanceId + transactionalId.substring(dash);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        Object id = config.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        if (!(id instanceof String s)) return clients.getProducer(config);
        Map<String, Object> stable = new HashMap<>(config);
        stable.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, stable(s));
        return clients.getProducer(stable);
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return clients.getAdmin(config);
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return clients.getConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return clients.getRestoreConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return clients.getGlobalConsumer(config);
    }
}
