package dev.seckill.order.lifecycle;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * How far the payments topic has been written to the DB, as a time: {@link #writtenUntil()} is a moment T such that
 * every payment appended to the topic before T has been applied and committed. The writer commits its offsets only
 * after the DB commit, so a partition is written up to T when the group's committed offset has reached the end offset
 * the partition had at T. Each call notes (now, end offset) per partition and keeps, per partition, the latest such
 * moment the committed offset has passed — so under steady load a lagging writer's mark trails by its lag, and a
 * stopped one's stands still. Committed offsets are the group's, so every member of the group sees the same mark.
 */
public final class PaymentsProgress {
    /** Snapshots kept per partition; when a writer lags further than this many sweeps, the oldest go (conservative). */
    private static final int MAX_SNAPSHOTS = 4096;

    private record Snapshot(long atMs, long endOffset) {}

    private final Admin admin;
    private final String group;
    private final String topic;
    private final DataSource db;
    private final Map<TopicPartition, Deque<Snapshot>> snapshots = new HashMap<>();
    private final Map<TopicPartition, Long> marks = new HashMap<>();

    /**
     * @param db whose clock the moments are taken by ({@link DbClock}): the one orders' deadlines are stored in, so the
     *     sweeper compares a deadline with a mark of the same clock
     */
    public PaymentsProgress(Admin admin, String group, String topic, DataSource db) {
        this.admin = admin;
        this.group = group;
        this.topic = topic;
        this.db = db;
    }

    /**
     * The time (epoch ms, by the database's clock) before which every payment on the topic has been written, or
     * {@link Long#MIN_VALUE} when some partition has not been seen written up to any moment yet. Throws when the broker
     * or the database does not answer (no mark: the caller cancels nothing).
     */
    public synchronized long writtenUntil() throws Exception {
        long now = DbClock.nowMs(db); // before the end offsets are read: whatever was appended before now is below them
        List<TopicPartition> partitions = admin
                .describeTopics(List.of(topic))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(topic)
                .partitions()
                .stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        // read_committed, as the writer consumes: the end is the last stable offset
        var ends = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .all()
                .get(10, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        long min = Long.MAX_VALUE;
        for (TopicPartition tp : partitions) {
            Deque<Snapshot> q = snapshots.computeIfAbsent(tp, k -> new ArrayDeque<>());
            q.addLast(new Snapshot(now, ends.get(tp).offset()));
            if (q.size() > MAX_SNAPSHOTS) q.removeFirst();
            OffsetAndMetadata c = committed.get(tp);
            long written = c == null ? 0 : c.offset();
            while (!q.isEmpty() && q.peekFirst().endOffset() <= written)
                marks.put(tp, q.removeFirst().atMs());
            min = Math.min(min, marks.getOrDefault(tp, Long.MIN_VALUE));
        }
        return partitions.isEmpty() ? Long.MIN_VALUE : min;
    }
}
