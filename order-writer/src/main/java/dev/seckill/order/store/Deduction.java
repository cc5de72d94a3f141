package dev.seckill.order.store;

import dev.seckill.contracts.ledger.LedgerEntry;

/**
 * A DEDUCTED ledger entry — a SUCCESS, the purchase whose order it writes — with the partition it was read from (the
 * goods' partition, the same number in every topic) and the trace id of its record (already bounded: {@code
 * TraceHeaders}).
 */
public record Deduction(LedgerEntry entry, int partition, String traceId) {
    /** Whether the entry has what an order needs: a DEDUCTED of a goods, a buyer, a requestId and a quantity. */
    public static boolean writable(LedgerEntry e) {
        return e.goodsId() > 0
                && e.userId() != null
                && e.requestId() != null
                && e.quantity() > 0
                && e.quantity() <= Integer.MAX_VALUE;
    }

    /** The sale the purchase was decided in (the offset of its open), or -1 when the entry does not say. */
    long saleOffset() {
        return entry.openOffset() == null ? -1 : entry.openOffset();
    }
}
