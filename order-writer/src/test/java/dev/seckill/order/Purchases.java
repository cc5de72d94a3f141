package dev.seckill.order;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.order.store.Deduction;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Purchases as the writer reads them: the DEDUCTED ledger entry stock-stream emits for a SUCCESS (one unit), as a
 * {@link Deduction} for the store, or as the record on the goods' ledger partition (key: the goods id) for the writer.
 */
final class Purchases {
    /** Where the tests' sale of a goods was opened, unless a test says otherwise: the first offset of its partition. */
    static final long OPEN_OFFSET = 0;

    /** Where the tests' purchase command sits, unless a test says otherwise: right after its sale's open. */
    static final long COMMAND_OFFSET = 1;

    private Purchases() {}

    /** One unit of {@code goods} bought by {@code user} under {@code requestId}, in the sale opened at offset 0. */
    static LedgerEntry deducted(long goods, String requestId, long user) {
        return deducted(goods, requestId, user, 0, COMMAND_OFFSET, OPEN_OFFSET);
    }

    /** The same, leaving {@code stockAfter} units, its command at {@code commandOffset}, its sale opened at {@code openOffset}. */
    static LedgerEntry deducted(
            long goods, String requestId, long user, long stockAfter, long commandOffset, long openOffset) {
        return deducted(goods, requestId, user, stockAfter, commandOffset, openOffset, Instant.now());
    }

    /** The same, accepted by the gateway at {@code acceptedAt}. */
    static LedgerEntry deducted(
            long goods,
            String requestId,
            long user,
            long stockAfter,
            long commandOffset,
            long openOffset,
            Instant acceptedAt) {
        return LedgerEntry.of(
                        LedgerEntry.deductOpId(goods, requestId),
                        goods,
                        LedgerType.DEDUCTED,
                        1,
                        user,
                        requestId,
                        null,
                        stockAfter,
                        Instant.now())
                .withPurchase(commandOffset, acceptedAt, openOffset);
    }

    /** The entry as the writer hands it to the store: read from partition 0, with its record's trace id (or none). */
    static Deduction deduction(LedgerEntry entry, String traceId) {
        return new Deduction(entry, 0, traceId);
    }

    /** {@link #deducted(long, String, long)} as the writer hands it to the store, without a trace id. */
    static Deduction deduction(long goods, String requestId, long user) {
        return deduction(deducted(goods, requestId, user), null);
    }

    /** The entry's record on the ledger topic, keyed by its goods (as the stream keys it), with the trace id if any. */
    static ProducerRecord<String, byte[]> onLedger(Topics topics, LedgerEntry entry, String traceId) {
        ProducerRecord<String, byte[]> r =
                new ProducerRecord<>(topics.ledger(), Long.toString(entry.goodsId()), Json.write(entry));
        if (traceId != null) TraceHeaders.put(r.headers(), traceId);
        return r;
    }
}
