package dev.seckill.gateway;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At start, the draws opened before this gateway started: the outcome view follows the ledger from its end, so a
 * gateway started inside a registration window answered {@code not_started} (and one inside a lottery's window
 * {@code PENDING}) until the next OPENED. Before the gateway listens, this reads the ledger's last {@code lookback}
 * (by record time, up to the end offsets of now) and gives {@link DrawWindows} its OPENED, DRAWN and CLOSED entries as
 * the past: they count only for goods the live view has not heard of since. Bounded by {@code budget}: a ledger too
 * long to read in it is left half-read, with a warning.
 */
public final class DrawWindowsBackfill {
    private static final Logger LOG = LoggerFactory.getLogger(DrawWindowsBackfill.class);

    public static final Setting<Long> LOOKBACK_MS = Setting.number(
            "gateway.draw.lookback.ms",
            Duration.ofHours(24).toMillis(),
            "at start, how far back the ledger is read for lottery and registration windows opened before (0: not read)");

    /** What the read found: entries read, windows still open, and whether it reached the end in time. */
    record Read(long records, int openWindows, boolean complete) {}

    private DrawWindowsBackfill() {}

    /** Every setting declared here. */
    public static List<Setting<?>> all() {
        return Setting.declaredIn(DrawWindowsBackfill.class);
    }

    /** Reads the ledger's last {@link #LOOKBACK_MS} into {@code windows}, for at most {@code budget}. */
    static Read read(Settings settings, Topics topics, DrawWindows windows, Duration budget) {
        Duration lookback = Duration.ofMillis(settings.get(LOOKBACK_MS));
        try {
            return lookback.isZero() ? new Read(0, 0, true) : readBack(settings, topics, windows, lookback, budget);
        } finally {
            windows.pastRead(); // the live ledger alone from here on, also when the read failed
        }
    }

    private static Read readBack(
            Settings settings, Topics topics, DrawWindows windows, Duration lookback, Duration budget) {
        long began = System.nanoTime();
        try (KafkaConsumer<String, byte[]> consumer = KafkaClients.consumer(
                settings,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false))) {
            List<TopicPartition> parts = new ArrayList<>();
            consumer.partitionsFor(topics.ledger(), Duration.ofSeconds(30))
                    .forEach(p -> parts.add(new TopicPartition(p.topic(), p.partition())));
            consumer.assign(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, Duration.ofSeconds(30));
            Map<TopicPartition, Long> since = new HashMap<>();
            parts.forEach(p -> since.put(p, System.currentTimeMillis() - lookback.toMillis()));
            Map<TopicPartition, OffsetAndTimestamp> from = consumer.offsetsForTimes(since, Duration.ofSeconds(30));
            Map<TopicPartition, Long> starts = new HashMap<>();
            from.forEach((p, at) -> {
                if (at != null && at.offset() < end.get(p)) starts.put(p, at.offset()); // else nothing that recent
            });
            List<TopicPartition> pending = new ArrayList<>(starts.keySet());
            consumer.assign(pending);
            starts.forEach(consumer::seek);
            long records = 0;
            long deadline = began + budget.toNanos();
            while (!pending.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    records++;
                    if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition()))) continue;
                    try {
                        LedgerEntry e = Json.read(r.value(), LedgerEntry.class);
                        windows.past(e);
                    } catch (RuntimeException unreadable) {
                        // the live view logs unreadable records; the past ones are skipped
                    }
                }
                pending.removeIf(p -> consumer.position(p) >= end.get(p));
            }
            Read read = new Read(records, windows.size(), pending.isEmpty());
            LOG.info(
                    "draw windows: {} ledger records of the last {} min read in {} ms, {} lottery or registration windows open",
                    records,
                    lookback.toMinutes(),
                    (System.nanoTime() - began) / 1_000_000,
                    read.openWindows());
            if (!read.complete())
                LOG.warn(
                        "draw windows: read {} ledger records in {} ms without reaching the end: a registration or "
                                + "lottery opened earlier may be answered not_started or PENDING until its next entry",
                        records,
                        budget.toMillis());
            return read;
        }
    }
}
