package dev.seckill.order.write;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A polled batch, immutable: built on the consumer thread, written on the writer thread.
 *
 * @param records            the records, in poll order
 * @param pieces             the same records as the writer applies them ({@link Piece}): runs of purchases and single
 *                           records, in poll order
 * @param positionsAfterPoll where the consumer stood right after polling it: the offsets committed after its DB commit
 */
public record Batch(
        List<ConsumerRecord<String, byte[]>> records,
        List<Piece> pieces,
        Map<TopicPartition, OffsetAndMetadata> positionsAfterPoll) {
    public Batch {
        records = List.copyOf(records);
        pieces = List.copyOf(pieces);
        positionsAfterPoll = Map.copyOf(positionsAfterPoll);
    }
}
