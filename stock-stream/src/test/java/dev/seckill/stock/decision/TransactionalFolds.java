package dev.seckill.stock.decision;

import dev.seckill.contracts.Json;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fold in maps that commits and aborts as the stream's changelogged stores do in its Kafka transaction: {@link #abort}
 * puts back what the last {@link #commit} saw (a crash before the commit), while Redis keeps whatever the calls did.
 */
final class TransactionalFolds implements FoldStore {
    private Map<Long, GoodsFold> folds = new HashMap<>();
    private TreeMap<String, GoodsFold.Holding> holdings = new TreeMap<>();
    private Map<String, String> decisions = new HashMap<>();
    private Map<Long, GoodsFold> committedFolds = new HashMap<>();
    private TreeMap<String, GoodsFold.Holding> committedHoldings = new TreeMap<>();
    private Map<String, String> committedDecisions = new HashMap<>();

    void commit() {
        committedFolds = copy(folds);
        committedHoldings = new TreeMap<>(holdings);
        committedDecisions = new HashMap<>(decisions);
    }

    void abort() {
        folds = copy(committedFolds);
        holdings = new TreeMap<>(committedHoldings);
        decisions = new HashMap<>(committedDecisions);
    }

    private static Map<Long, GoodsFold> copy(Map<Long, GoodsFold> from) {
        Map<Long, GoodsFold> to = new HashMap<>();
        from.forEach((k, v) -> to.put(k, Json.read(Json.write(v), GoodsFold.class)));
        return to;
    }

    @Override
    public GoodsFold get(long goodsId) {
        GoodsFold f = folds.get(goodsId);
        return f == null ? null : Json.read(Json.write(f), GoodsFold.class); // a store hands out copies
    }

    @Override
    public void put(long goodsId, GoodsFold fold) {
        folds.put(goodsId, Json.read(Json.write(fold), GoodsFold.class));
    }

    @Override
    public void hold(long goodsId, long userId, GoodsFold.Holding h) {
        holdings.put(FoldStore.holdingKey(goodsId, userId), h);
    }

    @Override
    public void release(long goodsId, long userId) {
        holdings.remove(FoldStore.holdingKey(goodsId, userId));
    }

    @Override
    public Map<Long, GoodsFold.Holding> holdings(long goodsId) {
        Map<Long, GoodsFold.Holding> out = new TreeMap<>();
        holdings.subMap(goodsId + ":", goodsId + ";").forEach((k, v) -> out.put(FoldStore.holderOf(k), v));
        return out;
    }

    @Override
    public String decision(long goodsId, String idKey) {
        return decisions.get(FoldStore.decisionKey(goodsId, idKey));
    }

    @Override
    public void decide(long goodsId, String idKey, String stored) {
        decisions.put(FoldStore.decisionKey(goodsId, idKey), stored);
    }
}
