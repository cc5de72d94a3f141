package dev.seckill.order.lifecycle;

/** What became of a payment event. */
public enum PaymentResult {
    /** The order was CREATED and is now PAID. */
    ACCEPTED,
    /** The order was cancelled (payment timeout), already paid by another payment, or unknown: recorded, not applied. */
    REFUSED,
    /** This paymentId was seen before: nothing changes. */
    DUPLICATE
}
