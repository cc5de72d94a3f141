package dev.seckill.stock.decision;

import java.util.ArrayList;
import java.util.List;

/** One stock script to run: which script, on which goods' keys, with which arguments (the first: the expected marker). */
public record ScriptCall(StockScript script, long goodsId, List<String> args) {
    /** The same call expecting the keys at another marker (after they were rebuilt from the fold). */
    ScriptCall expecting(String marker) {
        List<String> changed = new ArrayList<>(args);
        changed.set(0, marker);
        return new ScriptCall(script, goodsId, changed);
    }
}
