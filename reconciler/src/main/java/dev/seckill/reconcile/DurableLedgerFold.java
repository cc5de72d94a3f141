package dev.seckill.reconcile;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger folded per goods into the DB (reconcile_fold, reconcile_holding), together with the ledger offsets
 * folded so far (reconcile_offset) in the same transaction: a restart goes on where it stopped, exactly once. A record
 * that cannot be folded ({@link FoldRows#read}) is stepped over, recorded in reconcile_audit in that same transaction,
 * logged and counted ({@code seckill_reconcile_ledger_skipped}): one bad record never stops reconciliation. It is not
 * sent to the DLQ: order-writer, which consumes the same ledger, dead-letters what it cannot use.
 */
final class DurableLedgerFold implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DurableLedgerFold.class);

    /** The reconcile_offset row (part -1) a reconciler locks while it folds a batch. */
    static final int FOLD_MUTEX = -1;

    private final DataSource db;
    private final String topic;
    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final Counter skipped;

    DurableLedgerFold(Settings settings, String ledgerTopic, DataSource db, MeterRegistry metrics) throws SQLException {
        this.db = db;
        this.skipped = metrics.counter("seckill_reconcile_ledger_skipped"); // at 0 from the start
        this.topic = ledgerTopic;
        this.consumer = KafkaClients.consumer(
                settings,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        5000));
        this.partitions = consumer.partitionsFor(ledgerTopic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(ledgerTopic, p.partition()))
                .toList();
        consumer.assign(partitions);
        Map<Integer, Long> stored = storedOffsets();
        for (TopicPartition tp : partitions) {
            Long next = stored.get(tp.partition());
            if (next == null) consumer.seekToBeginning(List.of(tp));
            else consumer.seek(tp, next);
        }
    }

    int partitionCount() {
        return partitions.size();
    }

    /** Folds every committed ledger entry up to the end offsets of now; returns how many were folded. */
    int catchUp() throws SQLException {
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        int folded = 0;
        int deadlocks = 0;
        while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
            ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(200));
            if (records.isEmpty()) continue;
            Map<TopicPartition, Long> ahead = new HashMap<>();
            List<String> skips = new ArrayList<>();
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                try {
                    // one reconciler folds at a time: the topic's mutex row is locked first, for the whole transaction
                    // (a second reconciler on this database — a rolling update, an operator's `reconcile --repair`
                    // beside the service — waits here, then skips what this one folded: no entry counts twice, and
                    // with one lock taken first there is no lock order to deadlock on)
                    lockOffset(c, FOLD_MUTEX);
                    for (TopicPartition tp : records.partitions()) {
                        long foldedUpTo = lockOffset(c, tp.partition());
                        for (ConsumerRecord<String, byte[]> r : records.records(tp)) {
                            if (r.offset() < foldedUpTo) continue;
                            FoldRows.Read read = FoldRows.read(r);
                            if (read.entry() != null) {
                                FoldRows.apply(c, read.entry());
                                folded++;
                            } else {
                                FoldRows.skip(c, r, read.problem());
                                skips.add(tp + "@" + r.offset() + ": " + read.problem());
                            }
                        }
                        long next = Math.max(foldedUpTo, consumer.position(tp));
                        saveOffset(c, tp.partition(), next);
                        if (next > consumer.position(tp)) ahead.put(tp, next);
                    }
                    c.commit();
                    for (String skip : skips)
                        LOG.error("ledger entry {} cannot be folded: skipped (recorded in reconcile_audit)", skip);
                    skipped.increment(skips.size());
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    // nothing of the batch was folded: read it again next time (what another reconciler folded
                    // meanwhile is skipped then), instead of going on past it and never folding it
                    for (TopicPartition tp : records.partitions())
                        consumer.seek(tp, records.records(tp).get(0).offset());
                    ahead.clear();
                    // two reconcilers creating the mutex row at once can deadlock on InnoDB's insert locks: the loser
                    // was rolled back and simply tries the batch again
                    if (!(e instanceof SQLException q && "40001".equals(q.getSQLState())) || ++deadlocks > 10) throw e;
                }
            }
            ahead.forEach(consumer::seek);
        }
        return folded;
    }

    /** Ledger entries not folded yet, per partition. */
    Map<Integer, Long> lag() {
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        Map<Integer, Long> lag = new HashMap<>();
        for (TopicPartition tp : partitions) lag.put(tp.partition(), end.get(tp) - consumer.position(tp));
        return lag;
    }

    private void saveOffset(Connection c, int partition, long next) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("REPLACE INTO reconcile_offset (topic, part, next_offset) VALUES (?, ?, ?)")) {
            ps.setString(1, topic);
            ps.setInt(2, partition);
            ps.setLong(3, next);
            ps.executeUpdate();
        }
    }

    /** The partition's next offset to fold, its row locked until the transaction ends (created at 0 if missing). */
    private long lockOffset(Connection c, int partition) throws SQLException {
        try (PreparedStatement ins =
                c.prepareStatement("INSERT IGNORE INTO reconcile_offset (topic, part, next_offset) VALUES (?, ?, 0)")) {
            ins.setString(1, topic);
            ins.setInt(2, partition);
            ins.executeUpdate();
        }
        try (PreparedStatement q = c.prepareStatement(
                "SELECT next_offset FROM reconcile_offset WHERE topic = ? AND part = ? FOR UPDATE")) {
            q.setString(1, topic);
            q.setInt(2, partition);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private Map<Integer, Long> storedOffsets() throws SQLException {
        Map<Integer, Long> out = new HashMap<>();
        try (Connection c = db.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT part, next_offset FROM reconcile_offset WHERE topic = ?")) {
            ps.setString(1, topic);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getInt(1), rs.getLong(2));
            }
        }
        return out;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
