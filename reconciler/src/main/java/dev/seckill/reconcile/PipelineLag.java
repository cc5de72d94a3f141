package dev.seckill.reconcile;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * Which partitions of the pipeline have work in flight: commands not yet committed by stock-stream, or ledger
 * entries (orders among them) not yet committed by order-writer (its payments are keyed by order, not by goods). A goods lives in the same partition number of every
 * topic (same key, same partitioner, same partition count), so "settled" is judged per goods from its partition:
 * the reconciler's grace period is the pipeline's own lag, not a timer.
 */
final class PipelineLag {
    private final Admin admin;
    private final Topics topics;
    private final String streamGroup;
    private final String writerGroup;

    PipelineLag(Admin admin, Topics topics, Settings settings) {
        this.admin = admin;
        this.topics = topics;
        this.streamGroup = GroupIds.stockStream(settings);
        this.writerGroup = GroupIds.orderWriter(settings);
    }

    /** The pipeline at one moment: partitions with work in flight, and the end of each commands partition. */
    record Snapshot(Set<Integer> busy, Map<Integer, Long> commandEnds) {
        /**
         * A partition is settled over an interval when it had no work in flight at both ends of it and no command
         * arrived in between (so nothing was decided while the sources were being read).
         */
        boolean settledUntil(Snapshot later, int partition) {
            return !busy.contains(partition)
                    && !later.busy.contains(partition)
                    && Objects.equals(commandEnds.get(partition), later.commandEnds.get(partition));
        }
    }

    Snapshot snapshot() throws Exception {
        Set<Integer> busy = new HashSet<>();
        Map<Integer, Long> commandEnds = new HashMap<>();
        collect(busy, streamGroup, List.of(topics.commands()), commandEnds);
        collect(busy, writerGroup, List.of(topics.ledger()), new HashMap<>());
        return new Snapshot(busy, commandEnds);
    }

    private void collect(Set<Integer> busy, String group, List<String> topicNames, Map<Integer, Long> endsOut)
            throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topicNames)
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .forEach((name, d) -> d.partitions()
                        .forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
        var ends = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .all()
                .get(10, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        for (var e : ends.entrySet()) {
            long end = e.getValue().offset();
            endsOut.put(e.getKey().partition(), end);
            OffsetAndMetadata c = committed.get(e.getKey());
            if (end > 0 && (c == null || c.offset() < end)) busy.add(e.getKey().partition());
        }
    }

    /** The partition a goods' records go to (Kafka's default partitioner for a String key). */
    static int partitionOf(long goodsId, int partitions) {
        return Utils.toPositive(Utils.murmur2(Long.toString(goodsId).getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
