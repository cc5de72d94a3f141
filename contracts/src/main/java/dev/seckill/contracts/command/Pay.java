package dev.seckill.contracts.command;

/**
 * A payment the order-writer accepted for an order (on time, order CREATED), put into the goods' serial order so the
 * stream marks the purchase paid: from then on no {@code release} can give its units back (invariant 7), and a
 * {@code pay} that finds the units already released is refused. Sent by the order-writer only, never by a client;
 * idempotent by {@code opId} ({@code pay-order-<orderId>}: one payment decision per order).
 */
public record Pay(long goodsId, long userId, String requestId, long orderId, String paymentId, String opId)
        implements Command {
    /** The opId of the payment decision of an order: one per order, whichever payment the writer accepted. */
    public static String opIdOf(long orderId) {
        return "pay-order-" + orderId;
    }

    @Override
    public String idempotencyId() {
        return opId;
    }
}
