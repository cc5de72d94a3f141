package dev.seckill.order.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.Test;

/**
 * A commit that fails never ends the writer: a broker restarted during a revocation timed the synchronous commit out and
 * the exception ended the consumer loop (the service went DOWN with orders unwritten). The real broker case is chaos
 * {@code kill-broker}; this pins the rule on Kafka's own {@link MockConsumer}, in addition.
 */
class CommittedOffsetsTest {
    static final TopicPartition LEDGER = new TopicPartition("t.ledger", 0);

    /** Kafka's MockConsumer whose synchronous commit fails as a commit during a broker restart does. */
    static final class BrokerAway extends MockConsumer<String, byte[]> {
        RuntimeException failure = new TimeoutException("Timeout of 10000ms expired before the commit completed");

        BrokerAway() {
            super(OffsetResetStrategy.EARLIEST);
            assign(List.of(LEDGER));
            updateBeginningOffsets(Map.of(LEDGER, 0L));
        }

        @Override
        public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            if (failure != null) throw failure;
            super.commitSync(offsets, timeout);
        }
    }

    @Test
    void aSynchronousCommitTimedOutByABrokerRestart_isCountedAndRetriedLater_notThrown() {
        BrokerAway consumer = new BrokerAway();
        AtomicInteger failures = new AtomicInteger();
        CommittedOffsets offsets = new CommittedOffsets(consumer, failures::incrementAndGet);

        offsets.commit(Map.of(LEDGER, new OffsetAndMetadata(42)), true);
        assertThat(failures).hasValue(1);

        consumer.failure = null; // the broker is back: the same offsets are committed at the next chance
        offsets.commit(Map.of(LEDGER, new OffsetAndMetadata(42)), true);
        assertThat(consumer.committed(java.util.Set.of(LEDGER)).get(LEDGER).offset())
                .isEqualTo(42);
    }

    @Test
    void aWakeup_stillEndsTheCommit_itIsStopAsking() {
        BrokerAway consumer = new BrokerAway();
        consumer.failure = new WakeupException();
        CommittedOffsets offsets = new CommittedOffsets(consumer, () -> {});
        assertThatThrownBy(() -> offsets.commit(Map.of(LEDGER, new OffsetAndMetadata(7)), true))
                .isInstanceOf(WakeupException.class);
    }
}
