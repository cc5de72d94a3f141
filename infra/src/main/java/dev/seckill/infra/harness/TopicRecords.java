package dev.seckill.infra.harness;

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

/**
 * Every committed record of some topics (or of some of their partitions), read from the start to their end as it is
 * now: read_committed, no group, nothing committed; in each partition's order.
 */
public final class TopicRecords {
    private static final Duration AT_MOST = Duration.ofSeconds(60);

    private TopicRecords() {}

    /** Every partition of {@code topics}. */
    public static List<ConsumerRecord<String, byte[]>> read(Settings settings, Collection<String> topics) {
        return read(settings, topics, null);
    }

    /**
     * The partition {@code partitionOf} picks in each topic (given the topic's partition count), or every partition
     * when it is null.
     */
    public static List<ConsumerRecord<String, byte[]>> read(
            Settings settings, Collection<String> topics, PartitionChoice partitionOf) {
        Map<String, Object> conf = Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.CLIENT_ID_CONFIG,
                "topic-records-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = KafkaClients.consumer(settings, conf)) {
            List<TopicPartition> parts = new ArrayList<>();
            for (String t : topics) {
                int n = c.partitionsFor(t).size();
                if (partitionOf != null) parts.add(new TopicPartition(t, partitionOf.of(n)));
                else for (int p = 0; p < n; p++) parts.add(new TopicPartition(t, p));
            }
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

    /** Which partition of a topic of {@code partitions} partitions to read. */
    public interface PartitionChoice {
        int of(int partitions);
    }
}
