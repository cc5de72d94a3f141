package dev.seckill.stock.decision;

import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The markers a batch's calls expect the goods' keys to carry (docs/invariants.md, "The fold is the truth"): the first
 * call of a goods expects what its fold says, each next call what the one before it leaves ({@link KeysAt#leaves}).
 * Cleared after every round trip, once the completions have moved the folds' own markers.
 */
final class KeyMarkers {
    /** Redis may expire a sale's keys this much before the stream's clock says so (two hosts' clocks). */
    static final Duration CLOCK_SLACK = Duration.ofMinutes(5);
    /** The marker of a fold written before markers were kept: no key carries it, so the goods is rebuilt once. */
    static final String LEGACY = "legacy";

    private final FoldStore folds;
    private final KeyLifetime lifetime;
    private final Map<Long, String> chain = new HashMap<>();

    KeyMarkers(FoldStore folds, KeyLifetime lifetime) {
        this.folds = folds;
        this.lifetime = lifetime;
    }

    /** Where the next call of this goods expects its keys, and (it being made) where it leaves them. */
    KeysAt next(long goodsId, long offset, boolean opens) {
        String expected = chain.computeIfAbsent(goodsId, g -> truth(folds.get(g), null));
        KeysAt at = new KeysAt(expected, Long.toString(offset));
        chain.put(goodsId, at.leaves(opens));
        return at;
    }

    /** The batch's calls are answered: the folds know where the keys are. */
    void clear() {
        chain.clear();
    }

    /** A call of this goods was answered and completed: the fold records where it left the keys. */
    void applied(long goodsId, String leaves) {
        GoodsFold fold = folds.get(goodsId);
        if (fold == null || leaves.equals(fold.at)) return;
        fold.at = leaves;
        folds.put(goodsId, fold);
    }

    /**
     * The marker the goods' keys must carry by its fold: "" when it knows no sale or the sale's keys have expired
     * (within {@link #CLOCK_SLACK} when Redis, {@code observed} "", already let them go), else the fold's own marker.
     */
    String truth(GoodsFold fold, String observed) {
        if (fold == null || (fold.at != null && fold.at.isEmpty()) || fold.opened <= 0 && fold.at == null) return "";
        long keysEnd = keysEnd(fold);
        if (lifetime.retired(keysEnd)) return "";
        if ("".equals(observed) && lifetime.retired(keysEnd - CLOCK_SLACK.toMillis())) return "";
        return fold.at == null ? LEGACY : fold.at;
    }

    /** When the sale's keys expire, as the fold recorded it (folds written before it was kept: end + grace). */
    long keysEnd(GoodsFold fold) {
        return fold.expireAt > 0 ? fold.expireAt : fold.endAt + lifetime.grace().toMillis();
    }
}
