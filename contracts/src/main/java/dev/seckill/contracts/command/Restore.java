package dev.seckill.contracts.command;

/** Rebuilds the Redis state of one goods from the ledger fold. */
public record Restore(long goodsId, String opId) implements Command {
    @Override
    public String idempotencyId() {
        return opId;
    }
}
