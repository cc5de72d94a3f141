package dev.seckill.stock.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Every committed record of some topics, read from the beginning to their current end (read_committed). */
public final class CommittedRecords {
    private CommittedRecords() {}

    public static List<ConsumerRecord<String, byte[]>> read(String bootstrap, List<String> topics) {
        return read(bootstrap, topics, "read_committed");
    }

    /**
     * Every record written, committed or not (read_uncommitted, to the high watermark): what a stream decided inside
     * a transaction it has not committed yet.
     */
    public static List<ConsumerRecord<String, byte[]>> readUncommitted(String bootstrap, List<String> topics) {
        return read(bootstrap, topics, "read_uncommitted");
    }

    private static List<ConsumerRecord<String, byte[]>> read(String bootstrap, List<String> topics, String isolation) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        isolation,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            for (String t : topics) {
                c.partitionsFor(t, Duration.ofSeconds(30))
                        .forEach(p -> parts.add(new TopicPartition(t, p.partition())));
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }
}
