package dev.seckill.stock.draw.beacon;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rounds a source has verified, by number: at most {@code capacity}, the least recently asked for dropped first (a
 * dropped round is fetched again if asked for). Whoever puts a round here has verified it.
 */
final class VerifiedRounds {
    private final LinkedHashMap<Long, BeaconRound> rounds;

    VerifiedRounds(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("a cache of at least one round, not " + capacity);
        this.rounds = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, BeaconRound> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized BeaconRound get(long round) {
        return rounds.get(round);
    }

    synchronized void put(BeaconRound verified) {
        rounds.put(verified.round(), verified);
    }

    synchronized int size() {
        return rounds.size();
    }
}
