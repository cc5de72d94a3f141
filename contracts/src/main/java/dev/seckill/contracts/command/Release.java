package dev.seckill.contracts.command;

/** Gives a buyer's held units back; a no-op unless that buyer holds them (for {@code requestId}, when named). */
public record Release(
        long goodsId, long userId, int quantity, Long orderId, String requestId, String reason, String opId)
        implements Command {
    public static final java.util.Set<String> REASONS =
            java.util.Set.of("payment_timeout", "order_failed", "cancelled", "repair");

    @Override
    public String idempotencyId() {
        return opId;
    }
}
