package dev.seckill.stock.ledger;

/** Where the per-goods ledger folds live: a Kafka Streams state store in the app, a map in unit tests. */
public interface FoldStore {
    GoodsFold get(long goodsId);

    void put(long goodsId, GoodsFold fold);

    /** A store in a plain map, for tests that run the decider without Kafka Streams. */
    static FoldStore inMemory() {
        java.util.Map<Long, GoodsFold> map = new java.util.HashMap<>();
        return new FoldStore() {
            @Override public GoodsFold get(long goodsId) { return map.get(goodsId); }

            @Override public void put(long goodsId, GoodsFold fold) { map.put(goodsId, fold); }
        };
    }
}
