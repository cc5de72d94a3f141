package dev.seckill.stock.draw.beacon;

/**
 * Where the draw takes a beacon round from. Non-blocking: it is asked from a Kafka Streams thread every few tens of
 * milliseconds, so {@link #round(long)} answers at once, from what it has, and does its fetching elsewhere.
 *
 * <p>Only rounds whose signature verifies under {@link #chain()} are ever returned or kept.
 */
public interface BeaconSource extends AutoCloseable {
    /** The chain whose rounds this source gives. */
    BeaconChain chain();

    /**
     * {@code round} (1 or more), at once: {@link Fetch.Ready} with a verified round it holds; else {@link Fetch.NotYet}
     * while the round's time has not come, or came (or the round was first asked for) less than a moment ago and it is
     * being fetched; else {@link Fetch.Unreachable}: no relay has given it, the reason being what the relays said at
     * the last attempt, or that none has answered yet. A fetch is started when none is under way for the round (at
     * most one at a time per round; after a failed one, once its backoff is over).
     */
    Fetch round(long round);

    /**
     * A round known from elsewhere (a recorded DRAWN entry, say), so a replay never fetches it: kept if it verifies
     * under {@link #chain()}, ignored otherwise. Verifies on the caller's thread (about a millisecond).
     */
    void record(BeaconRound round);

    /** Stops its fetching (a source that fetches nothing has nothing to stop). */
    @Override
    default void close() {}
}
