package dev.seckill.stock.decision;

/**
 * The time this thread's stock script calls have waited for Redis's answers so far — each batch's round trips, retries
 * and their pauses included. A decision span reads it before and after its batch ({@code seckill.lua_ms}): per thread,
 * because the stream's threads share one {@link StockScripts}, and each batch is decided on one thread.
 */
public final class RedisWaits {
    private static final ThreadLocal<long[]> WAITED = ThreadLocal.withInitial(() -> new long[1]);

    private RedisWaits() {}

    static void add(long nanos) {
        WAITED.get()[0] += nanos;
    }

    /** The nanoseconds this thread has waited for Redis so far. */
    public static long onThisThread() {
        return WAITED.get()[0];
    }
}
