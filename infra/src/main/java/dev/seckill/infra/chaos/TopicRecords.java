package dev.seckill.infra.chaos;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** Every committed record of some topics, read from the start to their end as it is now (no group, nothing committed). */
final class TopicRecords {
    private static final Duration AT_MOST = Duration.ofSeconds(60);

    private TopicRecords() {}

    static List<ConsumerRecord<String, byte[]>> read(Settings settings, Collection<String> topics) {
        Map<String, Object> conf = Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.CLIENT_ID_CONFIG,
                "chaos-audit-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = KafkaClients.consumer(settings, conf)) {
            List<TopicPartition> parts = new ArrayList<>();
            for (String t : topics) c.partitionsFor(t).forEach(p -> parts.add(new TopicPartition(t, p.partition())));
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + AT_MOST.toNanos();
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline)
                    throw new IllegalStateException("could not read " + topics + " to its end in " + AT_MOST);
                c.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }
}
