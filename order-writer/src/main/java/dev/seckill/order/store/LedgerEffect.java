package dev.seckill.order.store;

/** What applying a ledger entry did. */
public enum LedgerEffect {
    /** Seen before (or a DEDUCTED entry, which arrives as a SUCCESS outcome): nothing changed. */
    NONE,
    /** Stock (and the sale's status) moved. */
    APPLIED,
    /**
     * A RELEASED entry ended the CREATED or PAYING order it released (or found it already cancelled); or a
     * PAYMENT_REFUSED entry cancelled the order that was being paid.
     */
    ORDER_ENDED,
    /** A PAID entry: the stream marked the purchase paid, the order is PAID and its payment ACCEPTED. */
    ORDER_PAID,
    /** A RELEASED entry whose order is not written yet: kept in early_release, applied when the order arrives. */
    ORDER_NOT_YET_WRITTEN,
    /**
     * A RELEASED entry for a PAID order: stock moved (it did in Redis), the order stays PAID, an anomaly is recorded.
     * The stream refuses to release a purchase it marked paid, so this is only seen for orders paid before payments
     * went through the stream (or a Redis that lost its marks and was not restored): kept as a guard.
     */
    PAID_ORDER_RELEASED
}
