package dev.seckill.stock;

import dev.seckill.stock.decision.ShortCircuitLog;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueStore;

/** The decider's fold and short-circuit log over the decide step's state stores (written in its Kafka transaction). */
final class StateStoreFolds {
    private StateStoreFolds() {}

    static FoldStore over(KeyValueStore<Long, GoodsFold> store, KeyValueStore<String, GoodsFold.Holding> holdings) {
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
                    it.forEachRemaining(
                            kv -> out.put(Long.parseLong(kv.key.substring(kv.key.indexOf(':') + 1)), kv.value));
                }
                return out;
            }
        };
    }

    static ShortCircuitLog shortCircuits(KeyValueStore<String, String> shortCircuits) {
        return new ShortCircuitLog() {
            @Override
            public String get(long goodsId, String requestId) {
                return shortCircuits.get(ShortCircuitLog.key(goodsId, requestId));
            }

            @Override
            public void put(long goodsId, String requestId, String stored) {
                shortCircuits.put(ShortCircuitLog.key(goodsId, requestId), stored);
            }
        };
    }
}
