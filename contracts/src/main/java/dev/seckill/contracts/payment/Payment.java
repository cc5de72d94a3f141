package dev.seckill.contracts.payment;

import java.time.Instant;

/**
 * A payment event on {@code <prefix>payments}, keyed by orderId, from an upstream payment service (or the gateway's
 * demo endpoint). {@code paymentId} makes it idempotent.
 */
public record Payment(int v, String paymentId, long orderId, Instant paidAt) {
    public static Payment of(String paymentId, long orderId, Instant paidAt) {
        return new Payment(1, paymentId, orderId, paidAt);
    }
}
