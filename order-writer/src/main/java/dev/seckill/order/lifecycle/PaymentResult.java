package dev.seckill.order.lifecycle;

/** What became of a payment event. */
public enum PaymentResult {
    /** The order was CREATED and paid on time: it is PAYING, the payment PENDING until the stream decides it. */
    PENDING,
    /** The order was cancelled (payment timeout), already paid by another payment, or unknown: recorded, not applied. */
    REFUSED,
    /** This paymentId was seen before: nothing changes. */
    DUPLICATE
}
