package dev.seckill.stock.ledger;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Where the per-goods ledger folds live: Kafka Streams state stores in the app, maps in unit tests. */
public interface FoldStore {
    GoodsFold get(long goodsId);

    void put(long goodsId, GoodsFold fold);

    void hold(long goodsId, long userId, GoodsFold.Holding holding);

    void release(long goodsId, long userId);

    /** Every live buyer of a goods and what they hold. */
    Map<Long, GoodsFold.Holding> holdings(long goodsId);

    /** Forgets every buyer of a goods (a forced re-open starts from none). */
    default void releaseAll(long goodsId) {
        holdings(goodsId).keySet().forEach(u -> release(goodsId, u));
    }

    /** The key of a holding: the goods, a colon, the buyer; a goods' holdings share the prefix {@code goods + ":"}. */
    static String holdingKey(long goodsId, long userId) {
        return goodsId + ":" + userId;
    }

    /** A store in plain maps, for tests that run the decider without Kafka Streams. */
    static FoldStore inMemory() {
        Map<Long, GoodsFold> folds = new HashMap<>();
        TreeMap<String, GoodsFold.Holding> holdings = new TreeMap<>();
        return new FoldStore() {
            @Override
            public GoodsFold get(long goodsId) {
                return folds.get(goodsId);
            }

            @Override
            public void put(long goodsId, GoodsFold fold) {
                folds.put(goodsId, fold);
            }

            @Override
            public void hold(long goodsId, long userId, GoodsFold.Holding h) {
                holdings.put(holdingKey(goodsId, userId), h);
            }

            @Override
            public void release(long goodsId, long userId) {
                holdings.remove(holdingKey(goodsId, userId));
            }

            @Override
            public Map<Long, GoodsFold.Holding> holdings(long goodsId) {
                Map<Long, GoodsFold.Holding> out = new TreeMap<>();
                holdings.subMap(goodsId + ":", goodsId + ";")
                        .forEach((k, v) -> out.put(Long.parseLong(k.substring(k.indexOf(':') + 1)), v));
                return out;
            }
        };
    }
}
