package dev.seckill.order.write;

import dev.seckill.order.store.TracedOutcome;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A polled batch, immutable: built on the consumer thread, written on the writer thread.
 *
 * @param records            the records, in poll order
 * @param fastPathSuccesses  its SUCCESS outcomes decoded for the fast path, or null when one of them is not well-formed
 *                           (the batch then takes the per-record path)
 * @param positionsAfterPoll where the consumer stood right after polling it: the offsets committed after its DB commit
 */
public record Batch(
        List<ConsumerRecord<String, byte[]>> records,
        List<TracedOutcome> fastPathSuccesses,
        Map<TopicPartition, OffsetAndMetadata> positionsAfterPoll) {
    public Batch {
        records = List.copyOf(records);
        fastPathSuccesses = fastPathSuccesses == null ? null : List.copyOf(fastPathSuccesses);
        positionsAfterPoll = Map.copyOf(positionsAfterPoll);
    }
}
