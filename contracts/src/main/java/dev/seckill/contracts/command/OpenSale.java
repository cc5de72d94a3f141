package dev.seckill.contracts.command;

import dev.seckill.contracts.fair.Fairness;
import java.time.Instant;

/**
 * Opens a sale of {@code stock} units in [startAt, endAt); {@code force} overwrites residual keys of a live sale.
 * {@code fairness} orders the opening: {@link Fairness#FCFS} (the default) in arrival order; {@link Fairness#LOTTERY}
 * by a draw among the buyers whose purchases were accepted in the first {@code windowMs} after {@code startAt}
 * ({@code windowMs} is 0 under FCFS); {@link Fairness#REGISTRATION} by a draw at the start among the buyers who
 * registered (a purchase accepted) in the {@code windowMs} before it. {@code buckets}: how many serial places the
 * goods' stock is split across (docs/decisions.md, "Stock buckets"); 1, the default, is one partition as ever.
 */
public record OpenSale(
        long goodsId,
        long stock,
        Instant startAt,
        Instant endAt,
        int perUserLimit,
        String opId,
        boolean force,
        Fairness fairness,
        long windowMs,
        int buckets)
        implements Command {
    /** The longest opening window a lottery may have: ten minutes. */
    public static final long MAX_WINDOW_MS = 600_000;
    /** The longest a drawn sale may be opened before its start: seven days. */
    public static final long MAX_DRAW_LEAD_MS = 7L * 86_400_000;

    /** The most buckets one goods may be split into (and never more than the commands topic's partitions). */
    public static final int MAX_BUCKETS = 64;

    public OpenSale {
        if (buckets < 1 || buckets > MAX_BUCKETS)
            throw new IllegalArgumentException("buckets must be 1.." + MAX_BUCKETS + ", got " + buckets);
    }

    /** A sale of one bucket. */
    public OpenSale(
            long goodsId,
            long stock,
            Instant startAt,
            Instant endAt,
            int perUserLimit,
            String opId,
            boolean force,
            Fairness fairness,
            long windowMs) {
        this(goodsId, stock, startAt, endAt, perUserLimit, opId, force, fairness, windowMs, 1);
    }

    /** A first-come-first-served sale. */
    public OpenSale(
            long goodsId, long stock, Instant startAt, Instant endAt, int perUserLimit, String opId, boolean force) {
        this(goodsId, stock, startAt, endAt, perUserLimit, opId, force, Fairness.FCFS, 0);
    }

    /** This open with {@code units} in place of its stock (one bucket's share). */
    public OpenSale withStock(long units) {
        return new OpenSale(goodsId, units, startAt, endAt, perUserLimit, opId, force, fairness, windowMs, buckets);
    }

    /** This open with its stock split across {@code count} buckets. */
    public OpenSale withBuckets(int count) {
        return new OpenSale(goodsId, stock, startAt, endAt, perUserLimit, opId, force, fairness, windowMs, count);
    }

    /** Whether the goods' stock is split across more than one bucket. */
    public boolean bucketed() {
        return buckets > 1;
    }

    @Override
    public String idempotencyId() {
        return opId;
    }

    /** When the draw's window opens: {@code startAt}, or {@code startAt - windowMs} for a registration. */
    public Instant windowStart() {
        return fairness == Fairness.REGISTRATION ? startAt.minusMillis(windowMs) : startAt;
    }

    /** When the draw's window closes: {@code startAt + windowMs} (a lottery), {@code startAt} (a registration, FCFS). */
    public Instant windowEnd() {
        return fairness == Fairness.LOTTERY ? startAt.plusMillis(windowMs) : startAt;
    }
}
