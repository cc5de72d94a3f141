package dev.seckill.order.write;

import dev.seckill.order.store.Deduction;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A part of a batch as the writer applies it, in the batch's order: a run of consecutive purchases (DEDUCTED ledger
 * entries, written by multi-row inserts) or one other record (a release, an open, a payment, anything malformed).
 * Applying the pieces in order applies every goods' effects in its ledger partition's order.
 */
public sealed interface Piece {
    /** Consecutive well-formed DEDUCTED entries, decoded, and their records (for the per-record path). */
    record Run(List<Deduction> deductions, List<ConsumerRecord<String, byte[]>> records) implements Piece {
        public Run {
            deductions = List.copyOf(deductions);
            records = List.copyOf(records);
        }
    }

    /** One record applied on its own, with a savepoint. */
    record One(ConsumerRecord<String, byte[]> record) implements Piece {}
}
