package dev.seckill.gateway.readside;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At start, the draws opened before this gateway started: the outcome view follows the ledger from its end, so a
 * gateway started inside a registration window answered {@code not_started} (and one inside a lottery's window
 * {@code PENDING}) until the next OPENED. Before the gateway listens, this reads the ledger's last {@code lookback}
 * (by record time, up to the end offsets of now) and gives {@link DrawWindows} its OPENED, DRAWN and CLOSED entries as
 * the past: they count only for goods the live view has not heard of since. Only OPENED, DRAWN and CLOSED records are
 * parsed (told by their bytes), and a partition's entries count once it was read to its end; bounded by {@code budget}
 * (a partition not read to its end in it counts for nothing, with a warning). Best effort: a Kafka error leaves it
 * unread, with a warning, and the gateway starts.
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
    public static Read read(Settings settings, Topics topics, DrawWindows windows, Duration budget) {
        long lookbackMs = settings.get(LOOKBACK_MS);
        try {
            if (lookbackMs < 0)
                throw new IllegalStateException(LOOKBACK_MS.env() + " must be 0 (not read) or more, got " + lookbackMs);
            return lookbackMs == 0
                    ? new Read(0, 0, true)
                    : readBack(settings, topics, windows, Duration.ofMillis(lookbackMs), budget);
        } catch (KafkaException e) { // a best-effort read: the gateway starts without it
            LOG.warn(
                    "draw windows: the ledger could not be read back ({}); windows opened earlier are not known",
                    e.getMessage());
            return new Read(0, windows.size(), false);
        } finally {
            windows.pastRead(); // the live ledger alone from here on, also when the read failed
        }
    }

    private static Read readBack(
            Settings settings, Topics topics, DrawWindows windows, Duration lookback, Duration budget) {
        long began = System.nanoTime();
        long deadline = began + budget.toNanos();
        try (KafkaConsumer<String, byte[]> consumer = KafkaClients.consumer(
                settings,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"))) { // retention removing a segment mid-read: on from the log's start, not the end
            List<TopicPartition> parts = new ArrayList<>();
            consumer.partitionsFor(topics.ledger(), left(deadline))
                    .forEach(p -> parts.add(new TopicPartition(p.topic(), p.partition())));
            consumer.assign(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, left(deadline));
            Map<TopicPartition, Long> starts = starts(consumer, end, lookback, deadline);
            consumer.assign(starts.keySet());
            starts.forEach(consumer::seek);
            // a partition's entries count once it is read to its end: the latest window entry of each goods
            Map<TopicPartition, Map<Long, LedgerEntry>> latest = new HashMap<>();
            long records = 0;
            Set<TopicPartition> pending = new HashSet<>(starts.keySet());
            while (!pending.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition p = new TopicPartition(r.topic(), r.partition());
                    if (r.offset() >= end.get(p) || !namesAWindowEntry(r.value())) continue;
                    records++;
                    try {
                        LedgerEntry e = Json.read(r.value(), LedgerEntry.class);
                        latest.computeIfAbsent(p, k -> new HashMap<>()).put(e.goodsId(), e);
                    } catch (RuntimeException unreadable) {
                        // the live view logs unreadable records; the past ones are skipped
                    }
                }
                List<TopicPartition> done = new ArrayList<>();
                for (TopicPartition p : pending) if (consumer.position(p) >= end.get(p)) done.add(p);
                consumer.pause(done); // their live tail is the live view's
                for (TopicPartition p : done)
                    latest.getOrDefault(p, Map.of()).values().forEach(windows::past);
                done.forEach(pending::remove);
            }
            Read read = new Read(records, windows.size(), pending.isEmpty());
            log(read, pending.size(), starts.size(), lookback, began, budget);
            return read;
        }
    }

    /** Where each partition's last {@code lookback} begins, for the partitions that have records that recent. */
    private static Map<TopicPartition, Long> starts(
            KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end, Duration lookback, long deadline) {
        Map<TopicPartition, Long> since = new HashMap<>();
        end.keySet().forEach(p -> since.put(p, System.currentTimeMillis() - lookback.toMillis()));
        Map<TopicPartition, Long> starts = new HashMap<>();
        consumer.offsetsForTimes(since, left(deadline)).forEach((p, at) -> {
            if (at != null && at.offset() < end.get(p)) starts.put(p, at.offset()); // else nothing that recent
        });
        return starts;
    }

    private static void log(Read read, int unfinished, int partitions, Duration lookback, long began, Duration budget) {
        LOG.info(
                "draw windows: {} window entries of the ledger's last {} min read in {} ms, {} lottery or "
                        + "registration windows open",
                read.records(),
                lookback.toMinutes(),
                (System.nanoTime() - began) / 1_000_000,
                read.openWindows());
        if (!read.complete())
            LOG.warn(
                    "draw windows: {} of {} ledger partitions not read to their end in {} ms (left out): a "
                            + "registration or lottery opened earlier may be answered not_started or PENDING until "
                            + "its next entry",
                    unfinished,
                    partitions,
                    budget.toMillis());
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
    }

    private static final byte[][] WINDOW_TYPES = {bytes("\"OPENED\""), bytes("\"DRAWN\""), bytes("\"CLOSED\"")};

    /** Whether a ledger record may be an OPENED, DRAWN or CLOSED entry, told without parsing it (most are DEDUCTED). */
    static boolean namesAWindowEntry(byte[] value) {
        if (value == null) return false;
        for (byte[] type : WINDOW_TYPES) if (contains(value, type)) return true;
        return false;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) if (haystack[i + j] != needle[j]) continue outer;
            return true;
        }
        return false;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
