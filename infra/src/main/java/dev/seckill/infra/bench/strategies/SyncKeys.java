package dev.seckill.infra.bench.strategies;

import java.util.List;

/**
 * The synchronous design's Redis keys (the write-up's {@code seckill:stock:{goodsId}}, {@code seckill:users:{goodsId}},
 * {@code seckill:soldout:{goodsId}}), under the run's own prefix and one hash tag per goods so a cluster keeps a
 * goods' keys on one node. The buyer's id only ever travels as a script argument, never in a key name.
 */
record SyncKeys(String prefix) {
    String stock(long goodsId) {
        return prefix + "sync:{" + goodsId + "}:stock";
    }

    String buyers(long goodsId) {
        return prefix + "sync:{" + goodsId + "}:buyers";
    }

    String soldOut(long goodsId) {
        return prefix + "sync:{" + goodsId + "}:soldout";
    }

    List<String> deductKeys(long goodsId) {
        return List.of(stock(goodsId), buyers(goodsId));
    }
}
