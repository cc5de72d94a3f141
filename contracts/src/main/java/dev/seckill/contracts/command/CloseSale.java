package dev.seckill.contracts.command;

/** Ends a sale now: later purchases are REJECTED {@code ended}. */
public record CloseSale(long goodsId, String opId) implements Command {
    @Override
    public String idempotencyId() {
        return opId;
    }
}
