package dev.seckill.gateway.status;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the status indexer reads each of its partitions from, by what the store holds ({@link IndexProgress}): on
 * assignment, from the store's offset (or, when it holds none, from the first outcome of the retention's span); after
 * each batch the offset is advanced from the one this indexer wrote last, and a Redis that answers another one lost
 * writes: the partition is read again from what Redis holds. A partition read again is not ready until the indexer has
 * reached the end the topic had when the rebuild began; the store is complete when every partition is ready.
 * Called on the indexer's thread only (the rebalance listener runs inside its poll).
 */
final class IndexRebuild {
    private static final Logger LOG = LoggerFactory.getLogger(IndexRebuild.class);
    private final KafkaConsumer<String, byte[]> consumer;
    private final IndexProgress progress;
    private final Duration span;
    private final Clock clock;
    /** The offset the store holds each assigned partition up to, as this indexer last wrote or read it (absent: none). */
    private final Map<TopicPartition, Long> written = new HashMap<>();
    /** Partitions being read again, and the end offset that makes each ready. */
    private final Map<TopicPartition, Long> until = new HashMap<>();

    IndexRebuild(KafkaConsumer<String, byte[]> consumer, IndexProgress progress, Duration span, Clock clock) {
        this.consumer = consumer;
        this.progress = progress;
        this.span = span;
        this.clock = clock;
    }

    int rebuilding() {
        return until.size();
    }

    void assigned(Collection<TopicPartition> assigned) {
        for (TopicPartition tp : assigned) {
            Long held;
            boolean ready;
            try {
                held = progress.offset(tp);
                ready = held != null && progress.ready(tp);
            } catch (RuntimeException e) { // cannot tell: read the span again (writing twice is harmless)
                LOG.warn(
                        "status index: the progress of {} is unreadable ({}); indexing its span again",
                        tp,
                        e.toString());
                held = null;
                ready = false;
            }
            restart(tp, held, !ready);
        }
    }

    void revoked(Collection<TopicPartition> revoked) {
        for (TopicPartition tp : revoked) {
            written.remove(tp);
            until.remove(tp);
        }
    }

    /** After a batch is in Redis: each partition's offset moves to the consumer's position, unless Redis lost writes. */
    void advance(Set<TopicPartition> batch) {
        for (TopicPartition tp : batch) {
            long to = consumer.position(tp);
            Long from = written.get(tp);
            Long held = progress.advance(tp, from, to);
            if (held == null) written.put(tp, to);
            else lost(tp, held < 0 ? null : held);
        }
    }

    /** Every assigned partition's offset as Redis holds it, against what this indexer wrote: less means lost writes. */
    void check() {
        for (TopicPartition tp : consumer.assignment()) {
            Long mine = written.get(tp);
            Long held = progress.offset(tp);
            if (mine != null && (held == null || held < mine)) lost(tp, held);
        }
    }

    /** Marks ready each partition read again up to the end it had when its rebuild began. */
    void settle() {
        until.entrySet().removeIf(e -> {
            TopicPartition tp = e.getKey();
            long position = consumer.position(tp);
            if (position < e.getValue()) return false;
            if (written.get(tp) == null) { // nothing to write in the span: the store holds the partition from here
                Long held = progress.advance(tp, null, position);
                if (held != null) return false; // another indexer wrote meanwhile: checked again next round
                written.put(tp, position);
            }
            progress.markReady(tp);
            LOG.info("status index: {} rebuilt up to offset {}", tp, position);
            return true;
        });
    }

    private void lost(TopicPartition tp, Long held) {
        LOG.warn(
                "status index: Redis holds {} up to {} where this indexer wrote up to {}: it lost writes; indexing again",
                tp,
                held == null ? "nothing" : held,
                written.get(tp));
        restart(tp, held, true);
    }

    /** Reads the partition from what the store holds ({@code held}), or from the span's start when it holds nothing. */
    private void restart(TopicPartition tp, Long held, boolean rebuild) {
        if (rebuild) {
            try {
                progress.unready(tp);
            } catch (
                    RuntimeException
                            e) { // Redis away: its ready mark went with what it lost, or goes at the next check
                LOG.warn("status index: {} not marked unready ({})", tp, e.toString());
            }
            until.put(tp, consumer.endOffsets(Set.of(tp)).get(tp));
        }
        if (held != null) {
            written.put(tp, held);
            consumer.seek(tp, held);
        } else {
            written.remove(tp);
            consumer.seek(tp, spanStart(tp));
        }
    }

    private long spanStart(TopicPartition tp) {
        long since = clock.millis() - span.toMillis();
        OffsetAndTimestamp first = consumer.offsetsForTimes(Map.of(tp, since)).get(tp);
        return first != null ? first.offset() : consumer.endOffsets(Set.of(tp)).get(tp);
    }
}
