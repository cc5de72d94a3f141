package dev.seckill.gateway.door;

import dev.seckill.gateway.status.DrawWait;
import dev.seckill.gateway.status.EntryReceipt;
import dev.seckill.gateway.status.Payload;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client requestIds this gateway accepted lately, with the purchase of each (goods, buyer, quantity), so that a
 * retry at the door answers with the same requestId instead of putting a second command in the log, and the id reused
 * for another purchase (another buyer's, or another goods or quantity) is refused. Read on every request that carries a requestId by every event loop, so without a shared lock: two
 * generations of concurrent maps; when the current one is full it becomes the previous one and the oldest generation
 * is dropped. Remembers at least the last {@code capacity / 2} ids and holds
 * at most {@code capacity} (plus the few added while a generation turns over).
 *
 * <p>Forgetting is safe: a retry of a forgotten id becomes a second command with the same requestId, and
 * stock-stream answers it from the stored decision of the first.
 */
public final class RecentIds {
    /**
     * An accepted id's purchase, when it was accepted (epoch ms), and for a purchase a draw holds, the draw
     * ({@code draw}) and where the broker appended it ({@code entry}, from the send's acknowledgment); else null.
     */
    public record Accepted(Payload purchase, long atMs, DrawWait draw, EntryReceipt entry) {}

    private final int generation;
    private volatile long turnovers;
    private volatile ConcurrentHashMap<String, Accepted> current = new ConcurrentHashMap<>();
    private volatile ConcurrentHashMap<String, Accepted> previous = new ConcurrentHashMap<>();

    public RecentIds(int capacity) {
        if (capacity < 2) throw new IllegalArgumentException("capacity must be at least 2, got " + capacity);
        this.generation = capacity / 2;
    }

    boolean contains(String id) {
        // current first: a turnover moves current to previous before it replaces current
        return current.containsKey(id) || previous.containsKey(id);
    }

    /** The purchase an accepted id was sent for, or null when the id is not (or no longer) known. */
    public Payload purchase(String id) {
        Accepted a = accepted(id);
        return a == null ? null : a.purchase();
    }

    /** What this gateway accepted under the id, or null when the id is not (or no longer) known. */
    public Accepted accepted(String id) {
        Accepted a = current.get(id);
        return a != null ? a : previous.get(id);
    }

    /** On return the id was in the current generation: it is forgotten only after two more turnovers. */
    void add(String id, Payload purchase) {
        add(id, purchase, null, null);
    }

    /** An id accepted for a purchase {@code draw} holds (null: none), appended at {@code entry} (null: not known). */
    void add(String id, Payload purchase, DrawWait draw, EntryReceipt entry) {
        Accepted accepted = new Accepted(purchase, System.currentTimeMillis(), draw, entry);
        while (true) {
            ConcurrentHashMap<String, Accepted> into = current;
            into.put(id, accepted);
            if (into.size() >= generation) turnOver(into);
            // turned over while we wrote (or by our own write): keep the id with the live generation too
            if (into == current) return;
        }
    }

    /** How many times a generation has turned over (for tests: an id is forgotten only after two). */
    long turnovers() {
        return turnovers;
    }

    /** How many ids are held now (both generations). */
    int size() {
        return current.size() + previous.size();
    }

    private synchronized void turnOver(ConcurrentHashMap<String, Accepted> full) {
        if (current != full) return; // another thread turned it over already
        previous = full;
        current = new ConcurrentHashMap<>();
        turnovers++;
    }
}
