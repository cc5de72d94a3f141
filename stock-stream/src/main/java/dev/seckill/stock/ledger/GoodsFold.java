package dev.seckill.stock.ledger;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the ledger says about one goods, kept by stock-stream in a changelogged state store (so it commits with the
 * outputs, exactly once): the sale's window, the units left and who holds what. {@code restore} rebuilds Redis from it.
 */
public final class GoodsFold {
    /** A live buyer's holding. */
    public record Holding(long quantity, String requestId, long stockAfter) {}

    public long startAt;
    public long endAt;
    public int perUserLimit;
    public String status = "open";
    public long opened;
    public long stock;
    public Map<Long, Holding> buyers = new LinkedHashMap<>();
}
