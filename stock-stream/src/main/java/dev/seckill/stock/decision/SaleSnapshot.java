package dev.seckill.stock.decision;

import java.util.Set;

/**
 * A goods' sale as Redis holds it right now, read to arm the {@link SoldOutGate}: the window and limit, the stock,
 * the live buyers, every id Redis has a stored decision for, and the highest command offset of {@code partition}
 * among those decisions (to tell whether Redis is ahead of the record being decided, as it is while a crashed
 * task replays).
 */
public record SaleSnapshot(
        long startAt,
        long endAt,
        int perUserLimit,
        boolean closed,
        long stock,
        Set<Long> buyers,
        Set<String> decided,
        long lastDecidedOffset) {}
