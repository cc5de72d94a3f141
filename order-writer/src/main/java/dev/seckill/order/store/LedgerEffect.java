package dev.seckill.order.store;

/** What applying a ledger entry did. */
public enum LedgerEffect {
    /** Seen before (or a DEDUCTED entry, which arrives as a SUCCESS outcome): nothing changed. */
    NONE,
    /** Stock (and the sale's status) moved. */
    APPLIED,
    /** A RELEASED entry ended the CREATED order it released (or found it already cancelled). */
    ORDER_ENDED,
    /** A RELEASED entry whose order is not written yet: kept in early_release, applied when the order arrives. */
    ORDER_NOT_YET_WRITTEN,
    /** A RELEASED entry for a PAID order: stock moved (it did in Redis), the order stays PAID, an anomaly is recorded. */
    PAID_ORDER_RELEASED
}
