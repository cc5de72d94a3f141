package dev.seckill.stock.decision;

import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.util.HashMap;
import java.util.Map;

/**
 * The goods' folds for the length of one batch: read from the store once, changed in memory, written back once by
 * {@link #flush()} at the end of the batch (still inside the drain, so in the same Kafka transaction as the outputs).
 * Every Lua call moves its goods' marker: without this a batch of 64 purchases wrote its goods' fold to the changelog
 * 64 times and read it back as JSON as often. Holdings and decisions go straight to the store.
 */
final class BatchFolds implements FoldStore {
    private final FoldStore store;
    private final Map<Long, GoodsFold> read = new HashMap<>();
    private final Map<Long, GoodsFold> written = new HashMap<>();

    BatchFolds(FoldStore store) {
        this.store = store;
    }

    /** Forgets what a batch that did not finish (an exception) read and changed: its transaction is aborted. */
    void discard() {
        written.clear();
        read.clear();
    }

    /** Writes every fold changed in the batch to the store, and forgets them (the next batch reads them again). */
    void flush() {
        written.forEach(store::put);
        written.clear();
        read.clear();
    }

    @Override
    public GoodsFold get(long goodsId) {
        GoodsFold f = written.get(goodsId);
        if (f != null) return f;
        return read.computeIfAbsent(goodsId, store::get);
    }

    @Override
    public void put(long goodsId, GoodsFold fold) {
        written.put(goodsId, fold);
        read.remove(goodsId);
    }

    @Override
    public void hold(long goodsId, long userId, GoodsFold.Holding holding) {
        store.hold(goodsId, userId, holding);
    }

    @Override
    public void release(long goodsId, long userId) {
        store.release(goodsId, userId);
    }

    @Override
    public Map<Long, GoodsFold.Holding> holdings(long goodsId) {
        return store.holdings(goodsId);
    }

    @Override
    public GoodsFold.Holding holding(long goodsId, long userId) {
        return store.holding(goodsId, userId);
    }

    @Override
    public String decision(long goodsId, String idKey) {
        return store.decision(goodsId, idKey);
    }

    @Override
    public void decide(long goodsId, String idKey, String stored) {
        store.decide(goodsId, idKey, stored);
    }
}
