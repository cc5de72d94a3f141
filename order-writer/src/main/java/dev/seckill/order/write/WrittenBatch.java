package dev.seckill.order.write;

import java.util.List;

/**
 * A batch after the writer thread is done with it, handed back to the consumer thread.
 *
 * @param deadLetters the records to send to the DLQ, or null when the writer stopped before the batch was written
 *                    (nothing to commit: it is redelivered to whoever consumes next)
 */
public record WrittenBatch(Batch batch, List<DeadLetter> deadLetters) {
    public WrittenBatch {
        deadLetters = deadLetters == null ? null : List.copyOf(deadLetters);
    }

    public boolean written() {
        return deadLetters != null;
    }
}
