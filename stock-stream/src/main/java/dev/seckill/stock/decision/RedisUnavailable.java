package dev.seckill.stock.decision;

/** Redis did not answer after the bounded retries: the task must stop rather than emit an outcome without a Lua result. */
public final class RedisUnavailable extends RuntimeException {
    public RedisUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
