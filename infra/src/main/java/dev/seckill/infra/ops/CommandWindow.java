package dev.seckill.infra.ops;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * A window of a topic to replay, from {@code --from} to {@code --to}: {@code earliest} / {@code latest}, an ISO-8601
 * instant (the first record at or after it, by record time) or an offset (the same in every partition). The end is
 * exclusive and fixed when the window is resolved, so records written after that are not part of it.
 */
public record CommandWindow(String from, String to) {

    /** Start (inclusive) and end (exclusive) offsets per partition. */
    public record Bounds(Map<TopicPartition, Long> start, Map<TopicPartition, Long> end) {
        public long size() {
            return start.keySet().stream()
                    .mapToLong(tp -> Math.max(0, end.get(tp) - start.get(tp)))
                    .sum();
        }
    }

    public Bounds resolve(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> first = consumer.beginningOffsets(partitions);
        Map<TopicPartition, Long> last = consumer.endOffsets(partitions);
        return new Bounds(offsets(consumer, from, first, last, first), offsets(consumer, to, first, last, last));
    }

    private static Map<TopicPartition, Long> offsets(
            Consumer<?, ?> consumer,
            String spec,
            Map<TopicPartition, Long> first,
            Map<TopicPartition, Long> last,
            Map<TopicPartition, Long> fallback) {
        if (spec == null || spec.isEmpty()) return fallback;
        if (spec.equals("earliest")) return first;
        if (spec.equals("latest")) return last;
        Map<TopicPartition, Long> out = new HashMap<>();
        if (spec.chars().allMatch(Character::isDigit)) {
            long offset = Long.parseLong(spec);
            first.keySet().forEach(tp -> out.put(tp, Math.max(first.get(tp), Math.min(offset, last.get(tp)))));
            return out;
        }
        Instant at;
        try {
            at = Instant.parse(spec);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "a window bound is earliest, latest, an offset or an ISO-8601 instant, not '" + spec + "'");
        }
        Map<TopicPartition, Long> query = new HashMap<>();
        first.keySet().forEach(tp -> query.put(tp, at.toEpochMilli()));
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
        first.keySet()
                .forEach(tp -> out.put(
                        tp, found.get(tp) == null ? last.get(tp) : found.get(tp).offset()));
        return out;
    }
}
