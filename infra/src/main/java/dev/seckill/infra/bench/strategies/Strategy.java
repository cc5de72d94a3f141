package dev.seckill.infra.bench.strategies;

import dev.seckill.infra.harness.buyers.Answer;

/**
 * One way to decide a flash-sale purchase inside the HTTP request, as the write-up's section 2 and 3 describe them. A
 * baseline for {@code ./seckill bench strategies}, not a service: it blocks its caller (a worker thread of the
 * {@link StrategyServer}, as a servlet container's request thread would be).
 */
interface Strategy extends AutoCloseable {
    Answer buy(long goodsId, long userId) throws Exception;

    @Override
    default void close() throws Exception {}
}
