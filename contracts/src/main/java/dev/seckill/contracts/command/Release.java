package dev.seckill.contracts.command;

import java.util.Set;

/** Gives a buyer's held units back; a no-op unless that buyer holds them (for {@code requestId}, when named). */
public record Release(
        long goodsId, long userId, int quantity, Long orderId, String requestId, String reason, String opId)
        implements Command {
    public static final Set<String> REASONS = Set.of("payment_timeout", "order_failed", "cancelled", "repair");

    @Override
    public String idempotencyId() {
        return opId;
    }
}
