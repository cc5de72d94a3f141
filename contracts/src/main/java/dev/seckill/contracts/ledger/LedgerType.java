package dev.seckill.contracts.ledger;

/**
 * What a ledger entry records. OPENED, DEDUCTED, RELEASED, CLOSED, RESTORED change (or end) a sale's stock; PAID and
 * PAYMENT_REFUSED are the stream's decision on a {@code pay} command (no stock change): PAID marks the purchase paid so
 * no release can give its units back, PAYMENT_REFUSED says its units had already been released (or its sale's keys had
 * expired) before the payment reached the stream. TRANSFERRED_OUT and TRANSFERRED_IN (v2) move units between the
 * buckets of one goods: they net to 0 for the goods once both are applied.
 */
public enum LedgerType {
    OPENED,
    DEDUCTED,
    RELEASED,
    CLOSED,
    RESTORED,
    PAID,
    PAYMENT_REFUSED,
    /** A lottery sale's window closed: the seed is revealed and the window's purchases are decided in the draw's order. */
    DRAWN,
    /** v2: units left one bucket of the goods for another ({@link BucketOf#peer}); in neither until TRANSFERRED_IN. */
    TRANSFERRED_OUT,
    /** v2: units a TRANSFERRED_OUT of another bucket sent arrived in this one. */
    TRANSFERRED_IN
}
