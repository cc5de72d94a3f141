package dev.seckill.reconcile;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** Reads a topic's committed records from the beginning up to its end offsets at call time (no consumer group). */
public final class LedgerReader {
    private LedgerReader() {}

    public static long readAll(Settings settings, String topic, Consumer<ConsumerRecord<String, byte[]>> sink) {
        try (KafkaConsumer<String, byte[]> consumer = KafkaClients.consumer(
                settings,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        5000))) {
            List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long count = 0;
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    sink.accept(r);
                    count++;
                }
            }
            return count;
        }
    }
}
