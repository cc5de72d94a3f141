package dev.seckill.stock.draw;

import dev.seckill.contracts.Json;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@link DrawHold}'s changelogged store: per goods, the pending draw ({@code s:<goods>}) and the commands held for
 * it ({@code h:<goods>:<seq>}, the sequence zero-padded so a range reads them in arrival order).
 */
final class HeldStore {
    private final KeyValueStore<String, byte[]> store;

    HeldStore(KeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    List<PendingDraw> pending() {
        List<PendingDraw> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.range("s:", "s;")) {
            while (it.hasNext()) out.add(Json.read(it.next().value, PendingDraw.class));
        }
        return out;
    }

    void save(PendingDraw d) {
        store.put(stateKey(d.goodsId()), Json.write(d));
    }

    void hold(long goods, long seq, HeldCommand h) {
        store.put(heldKey(goods, seq), Json.write(h));
    }

    /** The commands held for {@code goods}, in arrival order, removed with the pending draw. */
    List<HeldCommand> take(long goods) {
        List<HeldCommand> held = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.range(heldKey(goods, 0), heldKey(goods, Long.MAX_VALUE))) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                keys.add(kv.key);
                held.add(Json.read(kv.value, HeldCommand.class));
            }
        }
        keys.forEach(store::delete);
        store.delete(stateKey(goods));
        return held;
    }

    private static String stateKey(long goods) {
        return "s:" + goods;
    }

    static String heldKey(long goods, long seq) {
        return "h:" + goods + ":" + String.format("%019d", seq);
    }
}
