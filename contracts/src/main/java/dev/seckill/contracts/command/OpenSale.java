package dev.seckill.contracts.command;

import java.time.Instant;

/** Opens a sale of {@code stock} units in [startAt, endAt); {@code force} overwrites residual keys of a live sale. */
public record OpenSale(
        long goodsId, long stock, Instant startAt, Instant endAt, int perUserLimit, String opId, boolean force)
        implements Command {
    @Override
    public String idempotencyId() {
        return opId;
    }
}
