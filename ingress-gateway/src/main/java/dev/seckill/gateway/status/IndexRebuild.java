package dev.seckill.gateway.status;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the status indexer reads each of its partitions from, by what the store holds ({@link IndexProgress}): on
 * assignment, from the store's offset (or, when it holds none, from the first outcome of the retention's span, whose
 * offset is written first so that a Redis emptied mid-rebuild is noticed too); after each batch the offset is advanced
 * from the one this indexer wrote last, and a Redis that answers an older one (or none) lost writes: the partition is
 * read again from what Redis holds. The group's committed offset is a witness from outside Redis: an offset Redis holds
 * below it, found on assignment (a snapshot restored while the partition changed owner), is a loss too. A partition
 * read again is not ready until the indexer has reached the end the topic had when the rebuild began; the store is
 * complete when every partition is ready. A partition whose assignment could not be handled (Kafka or Redis did not
 * answer) is paused and handled again at the next check. Called on the indexer's thread only (the rebalance listener
 * runs inside its poll).
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
    /** Assigned partitions not handled yet (paused), and those whose ready mark is still to be removed. */
    private final Set<TopicPartition> unhandled = new HashSet<>();

    private final Set<TopicPartition> unreadyPending = new HashSet<>();

    IndexRebuild(KafkaConsumer<String, byte[]> consumer, IndexProgress progress, Duration span, Clock clock) {
        this.consumer = consumer;
        this.progress = progress;
        this.span = span;
        this.clock = clock;
    }

    int rebuilding() {
        return until.size() + unhandled.size();
    }

    void assigned(Collection<TopicPartition> assigned) {
        for (TopicPartition tp : assigned) handle(tp);
    }

    void revoked(Collection<TopicPartition> revoked) {
        for (TopicPartition tp : revoked) {
            written.remove(tp);
            until.remove(tp);
            unhandled.remove(tp);
        }
    }

    /** Where an assigned partition is read from; when Kafka or Redis cannot say now, paused and tried again later. */
    private void handle(TopicPartition tp) {
        try {
            Long held = progress.offset(tp);
            boolean ready = held != null && progress.ready(tp);
            OffsetAndMetadata committed = consumer.committed(Set.of(tp)).get(tp);
            boolean behindKafka = held != null && committed != null && committed.offset() > held;
            if (behindKafka)
                LOG.warn("status index: Redis holds {} up to {}, Kafka saw {}: lost writes", tp, held, committed);
            // no offset in Redis where Kafka has one: lost; neither: a partition never indexed (a first start)
            if (behindKafka || (held == null && committed != null)) progress.markLoss();
            restart(tp, held, !ready || behindKafka);
            if (unhandled.remove(tp)) consumer.resume(Set.of(tp));
        } catch (RuntimeException e) {
            LOG.warn("status index: {} not placed yet ({}); paused, tried again shortly", tp, e.toString());
            unhandled.add(tp);
            consumer.pause(Set.of(tp));
        }
    }

    /**
     * After a batch is in Redis: each partition's offset moves to the consumer's position, unless Redis lost writes
     * (an older offset, or none: read again from there) or another owner went further (adopted). When Redis cannot take
     * the offset, the batch's partitions go back to where the store holds them, so the batch is read again.
     */
    void advance(Set<TopicPartition> batch) {
        try {
            for (TopicPartition tp : batch) {
                long to = consumer.position(tp);
                Long from = written.get(tp);
                Long held = progress.advance(tp, from, to);
                if (held == null) written.put(tp, to);
                else if (from != null && held > from) adopt(tp, held);
                else lost(tp, held < 0 ? null : held);
            }
        } catch (RuntimeException e) {
            for (TopicPartition tp : batch) {
                Long from = written.get(tp);
                if (from != null && consumer.assignment().contains(tp)) consumer.seek(tp, from);
            }
            throw e;
        }
    }

    /** Every assigned partition's offset as Redis holds it, against what this indexer wrote: less means lost writes. */
    void check() {
        for (TopicPartition tp : new ArrayList<>(unhandled)) handle(tp);
        for (TopicPartition tp : new ArrayList<>(unreadyPending)) unready(tp);
        for (TopicPartition tp : consumer.assignment()) {
            if (unhandled.contains(tp)) continue;
            Long mine = written.get(tp);
            Long held = progress.offset(tp);
            if (mine != null && (held == null || held < mine)) lost(tp, held);
            else if (mine != null && held > mine) adopt(tp, held);
        }
    }

    /** Marks ready each partition read again up to the end it had when its rebuild began. */
    void settle() {
        List<TopicPartition> reached = new ArrayList<>();
        for (Map.Entry<TopicPartition, Long> e : until.entrySet())
            if (consumer.position(e.getKey()) >= e.getValue()) reached.add(e.getKey());
        for (TopicPartition tp : reached) {
            long position = consumer.position(tp);
            if (written.get(tp) == null) { // nothing in the span: the store holds the partition from here
                Long held = progress.advance(tp, null, position);
                if (held != null) {
                    lost(tp, held < 0 ? null : held); // written meanwhile: placed again, settled later
                    continue;
                }
                written.put(tp, position);
            }
            if (unreadyPending.contains(tp)) continue; // its old mark is not gone yet
            progress.extendLoss();
            progress.markReady(tp);
            until.remove(tp);
            LOG.info("status index: {} rebuilt up to offset {}", tp, position);
        }
    }

    private void adopt(TopicPartition tp, long held) {
        LOG.info("status index: {} was indexed up to {} by another owner; going on from there", tp, held);
        written.put(tp, held);
        consumer.seek(tp, held);
    }

    private void lost(TopicPartition tp, Long held) {
        LOG.warn(
                "status index: Redis holds {} up to {} where this indexer wrote up to {}: it lost writes; indexing again",
                tp,
                held == null ? "nothing" : held,
                written.get(tp));
        progress.markLoss();
        restart(tp, held, true);
    }

    /**
     * Reads the partition from what the store holds ({@code held}), or from the span's start when it holds nothing —
     * whose offset is written first, so that the rebuild's own progress is checked like any other.
     */
    private void restart(TopicPartition tp, Long held, boolean rebuild) {
        if (rebuild) {
            unready(tp);
            until.put(tp, consumer.endOffsets(Set.of(tp)).get(tp));
        }
        long from = held != null ? held : spanStart(tp);
        if (held == null) {
            Long other = progress.advance(tp, null, from);
            if (other != null && other >= 0) from = other; // written meanwhile: go on from there
        }
        written.put(tp, from);
        consumer.seek(tp, from);
    }

    private void unready(TopicPartition tp) {
        try {
            progress.unready(tp);
            unreadyPending.remove(tp);
        } catch (RuntimeException e) { // tried again at the next check; the partition is not marked ready before
            LOG.warn("status index: {} not marked unready yet ({})", tp, e.toString());
            unreadyPending.add(tp);
        }
    }

    private long spanStart(TopicPartition tp) {
        long since = clock.millis() - span.toMillis();
        OffsetAndTimestamp first = consumer.offsetsForTimes(Map.of(tp, since)).get(tp);
        return first != null ? first.offset() : consumer.endOffsets(Set.of(tp)).get(tp);
    }
}
