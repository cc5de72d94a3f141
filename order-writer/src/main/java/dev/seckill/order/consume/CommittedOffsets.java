package dev.seckill.order.consume;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer's offset commits. Confined to the consumer thread, like the consumer itself. No commit failure ends the
 * writer: a commit lost to a broker restart, a rebalance or a timeout only means the records are read again, and the
 * op_id claims make that a no-op; so a Kafka outage of seconds is ridden out (the loop polls on and re-joins).
 */
final class CommittedOffsets {
    private static final Logger LOG = LoggerFactory.getLogger(CommittedOffsets.class);

    private final Consumer<String, byte[]> consumer;
    /** The offsets last committed (or being committed asynchronously); null before the first commit. */
    private Map<TopicPartition, OffsetAndMetadata> last;

    private final Runnable onFailure;

    /** @param onFailure counts a failed commit (a metric), on the consumer thread */
    CommittedOffsets(Consumer<String, byte[]> consumer, Runnable onFailure) {
        this.consumer = consumer;
        this.onFailure = onFailure;
    }

    /** Where the consumer stands now on each assigned partition (past transaction markers too). */
    Map<TopicPartition, OffsetAndMetadata> positions() {
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) {
            try {
                positions.put(tp, new OffsetAndMetadata(consumer.position(tp, Duration.ofSeconds(1))));
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                // a partition whose position needs the broker while it is away: not committed this time
                LOG.debug("position of {} not known now: {}", tp, e.getMessage());
            }
        }
        return positions;
    }

    /**
     * Commits the consumer's positions (everything polled is written by now) when they moved. Positions rather than
     * last offset + 1, so that the committed offset also steps over the transaction markers of the outcome and ledger
     * topics: an idle writer then shows zero lag, which is what the reconciler's grace is measured against.
     */
    void commitPositions() {
        commit(positions(), false);
    }

    /**
     * Commits offsets of partitions still assigned, when they moved: asynchronously in the loop (a lost commit only
     * means a redelivery, which the op_id claims make a no-op), synchronously before partitions are handed over.
     */
    void commit(Map<TopicPartition, OffsetAndMetadata> offsets, boolean sync) {
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>(offsets);
        positions.keySet().retainAll(consumer.assignment());
        if (positions.isEmpty() || positions.equals(last)) return;
        last = positions;
        if (sync) {
            try {
                consumer.commitSync(positions, Duration.ofSeconds(10));
            } catch (WakeupException | InterruptException e) {
                throw e; // stop() asking, or the thread interrupted: not a commit failure
            } catch (RuntimeException e) {
                last = null; // committed again at the next chance
                onFailure.run();
                LOG.warn("offset commit failed (the records will be read again, harmlessly): {}", e.toString());
            }
            return;
        }
        consumer.commitAsync(positions, (o, error) -> {
            if (error != null) {
                last = null; // committed again at the next chance (an idle partition would keep its lag)
                onFailure.run();
                LOG.debug("offset commit failed (records will be redelivered, harmlessly): {}", error.getMessage());
            }
        });
    }

    /** On the way out: the last offsets once more, synchronously (a failure is a harmless redelivery). */
    void commitLastBeforeClose() {
        try {
            if (last != null) consumer.commitSync(last, Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.debug("final offset commit failed (harmless redelivery): {}", e.getMessage());
        }
    }
}
