package dev.seckill.stock.decision;

import java.util.ArrayList;
import java.util.List;

/**
 * One stock script to run: which script, on which goods' keys — its {@code bucket}'s ({@code RedisKeys.goodsKeys(goods,
 * bucket)}; 0 for a one-bucket sale) — with which arguments (the first: the expected marker).
 */
public record ScriptCall(StockScript script, long goodsId, int bucket, List<String> args) {
    /** A call on the keys of bucket 0, a one-bucket sale's. */
    public ScriptCall(StockScript script, long goodsId, List<String> args) {
        this(script, goodsId, 0, args);
    }

    /** The same call on the keys of bucket {@code other}. */
    ScriptCall inBucket(int other) {
        return other == bucket ? this : new ScriptCall(script, goodsId, other, args);
    }

    /** The same call expecting the keys at another marker (after they were rebuilt from the fold). */
    ScriptCall expecting(String marker) {
        List<String> changed = new ArrayList<>(args);
        changed.set(0, marker);
        return new ScriptCall(script, goodsId, bucket, changed);
    }
}
