package dev.seckill.stock.decision;

import java.util.List;

/** One stock script to run: which script, on which goods' keys, with which arguments. */
public record ScriptCall(StockScript script, long goodsId, List<String> args) {}
