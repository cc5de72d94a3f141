package dev.seckill.stock.decision;

/**
 * The decisions the {@link SoldOutGate} made without Redis, kept where they commit with the outputs (a changelogged
 * store of the task): Redis never sees them, so this is where an upstream retry or a replay of such a request finds
 * its stored decision. Keyed by goods and requestId like the scripts' decisions hash; the value has the scripts'
 * format, {@code OUTCOME|detail|stockAfter|partition:offset}.
 */
public interface ShortCircuitLog {
    String get(long goodsId, String requestId);

    void put(long goodsId, String requestId, String stored);

    static String key(long goodsId, String requestId) {
        return goodsId + ":" + requestId;
    }
}
