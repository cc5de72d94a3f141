package dev.seckill.stock.draw;

import dev.seckill.contracts.Json;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@link DrawHold}'s changelogged store: per goods, the pending draw ({@code s:<goods>}), the commands held for
 * it ({@code h:<goods>:<seq>}, the sequence zero-padded so a range reads them in arrival order), and a drawn window
 * being released ({@code r:<goods>}, {@link Release}; its order in chunks {@code o:<goods>:<chunk>}).
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

    /** The commands held for {@code goods} at sequence numbers {@code [from, to)}, in arrival order (left in the store). */
    List<HeldCommand> list(long goods, long from, long to) {
        List<HeldCommand> held = new ArrayList<>();
        if (to <= from) return held;
        try (KeyValueIterator<String, byte[]> it = store.range(heldKey(goods, from), heldKey(goods, to - 1))) {
            while (it.hasNext()) held.add(Json.read(it.next().value, HeldCommand.class));
        }
        return held;
    }

    /** The command held at {@code seq}, removed from the store. */
    HeldCommand remove(long goods, long seq) {
        byte[] value = store.delete(heldKey(goods, seq));
        if (value == null) throw new IllegalStateException("no command held for goods " + goods + " at " + seq);
        return Json.read(value, HeldCommand.class);
    }

    /** Forgets the pending draw of {@code goods} (its held commands stay, for its release). */
    void forget(long goods) {
        store.delete(stateKey(goods));
    }

    List<Release> releases() {
        List<Release> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.range("r:", "r;")) {
            while (it.hasNext()) out.add(Json.read(it.next().value, Release.class));
        }
        return out;
    }

    void save(Release r) {
        store.put("r:" + r.goodsId(), Json.write(r));
    }

    void delete(Release r) {
        store.delete("r:" + r.goodsId());
    }

    /** One chunk of a release's order: the sequence numbers of its commands, in the draw's order. */
    void saveOrder(long goods, long chunk, long[] seqs) {
        store.put(orderKey(goods, chunk), Json.write(seqs));
    }

    long[] order(long goods, long chunk) {
        byte[] value = store.get(orderKey(goods, chunk));
        if (value == null) throw new IllegalStateException("no release order for goods " + goods + ", chunk " + chunk);
        return Json.read(value, long[].class);
    }

    void deleteOrder(long goods, long chunk) {
        store.delete(orderKey(goods, chunk));
    }

    private static String orderKey(long goods, long chunk) {
        return "o:" + goods + ":" + String.format("%019d", chunk);
    }

    private static String stateKey(long goods) {
        return "s:" + goods;
    }

    static String heldKey(long goods, long seq) {
        return "h:" + goods + ":" + String.format("%019d", seq);
    }
}
