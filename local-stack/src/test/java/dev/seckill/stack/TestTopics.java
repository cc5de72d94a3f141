package dev.seckill.stack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What tests read from and remove on a broker. A read goes to the end offsets the topic had when it began, never for a
 * fixed time: "absent" is then a statement about the whole topic, not about what arrived within a few seconds.
 */
public final class TestTopics {
    private TestTopics() {}

    /**
     * Every record of {@code topic} up to its end offsets at the call (read_committed: aborted transactions' records
     * are not there); an empty list when the topic does not exist. Fails when the end is not reached within a minute.
     */
    public static List<ConsumerRecord<String, byte[]>> readToEnd(String bootstrap, String topic) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, byte[]>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "read-" + UUID.randomUUID(),
                        ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG,
                        false,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos =
                    consumer.listTopics(Duration.ofSeconds(30)).get(topic);
            if (infos == null || infos.isEmpty()) return out;
            List<TopicPartition> partitions = infos.stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions, Duration.ofSeconds(30)));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() > deadline)
                    throw new AssertionError("the end offsets of " + topic + " " + end + " were not reached in 1 min");
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    /** Deletes every topic whose name starts with {@code prefix} (a test's namespace); returns their names. */
    public static List<String> deleteWithPrefix(String bootstrap, String prefix) {
        if (prefix == null || prefix.isEmpty()) throw new IllegalArgumentException("a namespace's prefix, not all");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            List<String> mine = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(prefix))
                    .toList();
            if (!mine.isEmpty()) admin.deleteTopics(mine).all().get(60, TimeUnit.SECONDS);
            return mine;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("could not delete the topics under " + prefix + ": " + e.getMessage(), e);
        }
    }
}
