package dev.seckill.stock;

import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueStore;

/** The decider's fold — window and units, holdings, decisions — over the decide step's state stores (written in its Kafka transaction). */
final class StateStoreFolds {
    private StateStoreFolds() {}

    static FoldStore over(
            KeyValueStore<Long, GoodsFold> store,
            KeyValueStore<String, GoodsFold.Holding> holdings,
            KeyValueStore<String, String> decisions) {
        return new FoldStore() {
            @Override
            public GoodsFold get(long goodsId) {
                return store.get(goodsId);
            }

            @Override
            public void put(long goodsId, GoodsFold fold) {
                store.put(goodsId, fold);
            }

            @Override
            public void hold(long goodsId, long userId, GoodsFold.Holding h) {
                holdings.put(FoldStore.holdingKey(goodsId, userId), h);
            }

            @Override
            public void release(long goodsId, long userId) {
                holdings.delete(FoldStore.holdingKey(goodsId, userId));
            }

            @Override
            public Map<Long, GoodsFold.Holding> holdings(long goodsId) {
                Map<Long, GoodsFold.Holding> out = new TreeMap<>();
                try (var it = holdings.prefixScan(goodsId + ":", new StringSerializer())) {
                    it.forEachRemaining(kv -> out.put(FoldStore.holderOf(kv.key), kv.value));
                }
                return out;
            }

            @Override
            public GoodsFold.Holding holding(long goodsId, long userId) {
                return holdings.get(FoldStore.holdingKey(goodsId, userId));
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
