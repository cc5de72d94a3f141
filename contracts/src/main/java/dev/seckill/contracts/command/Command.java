package dev.seckill.contracts.command;

/** A record of {@code <prefix>commands}; keyed by goodsId. */
public sealed interface Command permits Purchase, OpenSale, Release, CloseSale, Restore, Pay {
    long goodsId();

    /** The idempotency id of this command: requestId for purchases, opId for the rest. */
    String idempotencyId();

    /** The record key on the commands topic: the goods id as a decimal string. */
    default String key() {
        return Long.toString(goodsId());
    }
}
