package dev.seckill.stock.ledger;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the per-goods ledger folds live — the window and units, the live buyers, every decision made — Kafka Streams
 * state stores in the app (committed with the outputs), maps in unit tests.
 */
public interface FoldStore {
    GoodsFold get(long goodsId);

    void put(long goodsId, GoodsFold fold);

    void hold(long goodsId, long userId, GoodsFold.Holding holding);

    void release(long goodsId, long userId);

    /** Every live buyer of a goods and what they hold. */
    Map<Long, GoodsFold.Holding> holdings(long goodsId);

    /** What one buyer of a goods holds; null when they hold nothing. */
    default GoodsFold.Holding holding(long goodsId, long userId) {
        return holdings(goodsId).get(userId);
    }

    /**
     * The stored decision of an id of this goods ({@link #purchaseKey} or {@link #operationKey}), or null. Every
     * decision the stream made is kept here, in its own state (committed with the outputs): Redis keeps none.
     */
    String decision(long goodsId, String idKey);

    void decide(long goodsId, String idKey, String stored);

    /** A purchase's key among a goods' decisions: its requestId, in a namespace apart from operations'. */
    static String purchaseKey(String requestId) {
        return "r:" + requestId;
    }

    /** An operation's key among a goods' decisions: its opId. */
    static String operationKey(String opId) {
        return "o:" + opId;
    }

    /** Where a goods' decision of an id is stored: the goods, a colon, the id's key; a goods' decisions share a prefix. */
    static String decisionKey(long goodsId, String idKey) {
        return goodsId + ":" + idKey;
    }

    /** The buyer a holding's key names ({@link #holdingKey}). */
    static long holderOf(String holdingKey) {
        return Long.parseLong(holdingKey.substring(holdingKey.indexOf(':') + 1));
    }

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
        Map<String, String> decisions = new HashMap<>();
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
                holdings.subMap(goodsId + ":", goodsId + ";").forEach((k, v) -> out.put(FoldStore.holderOf(k), v));
                return out;
            }

            @Override
            public GoodsFold.Holding holding(long goodsId, long userId) {
                return holdings.get(holdingKey(goodsId, userId));
            }

            @Override
            public String decision(long goodsId, String idKey) {
                return decisions.get(FoldStore.decisionKey(goodsId, idKey));
            }

            @Override
            public void decide(long goodsId, String idKey, String stored) {
                decisions.put(FoldStore.decisionKey(goodsId, idKey), stored);
            }
        };
    }
}
