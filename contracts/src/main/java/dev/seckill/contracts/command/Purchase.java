package dev.seckill.contracts.command;

import java.time.Instant;

/** A buyer's attempt to buy {@code quantity} units of one goods; {@code acceptedAt} decides the sale window. */
public record Purchase(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt)
        implements Command {
    @Override
    public String idempotencyId() {
        return requestId;
    }
}
