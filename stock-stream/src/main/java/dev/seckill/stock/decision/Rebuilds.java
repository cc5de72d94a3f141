package dev.seckill.stock.decision;

import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.util.Map;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A call answered STALE: the goods' keys were not at the marker the fold expects. Redis lost writes (a restart from an
 * older snapshot or none, a failover to a replica that lagged, a restore from a backup), or holds writes the fold does
 * not (a crash replay: the aborted transaction's calls ran; a pipeline retried after a lost connection), or keys the
 * fold says expired. Either way the fold is the truth: the keys are rebuilt from it ({@code restore.lua}: window,
 * units, live buyers, paid marks, the fold's marker) and the call is made again, at the same serial position, so the
 * command is decided against exactly the state the ledger says it follows. No ledger entry: nothing changed in it.
 */
final class Rebuilds {
    private static final Logger LOG = LoggerFactory.getLogger(Rebuilds.class);
    private static final int MAX_ATTEMPTS = 3;

    /** The answer to a call made again, and the marker it expected (which decides the marker it left). */
    record Answer(LuaResult result, KeysAt at) {}

    private final StockScripts scripts;
    private final FoldStore folds;
    private final KeyMarkers markers;

    /** The lapses of this instance's lease when the task started (its decider was made). */
    private final long lapsesAtStart;

    Rebuilds(StockScripts scripts, FoldStore folds, KeyMarkers markers) {
        this.scripts = scripts;
        this.folds = folds;
        this.markers = markers;
        this.lapsesAtStart = scripts.ownLease().lapses();
    }

    /**
     * Rebuilds the goods' keys from its fold when {@code answer} is STALE and {@code first} (a later call of the goods
     * in the batch finds them rebuilt already: its pipelined answer is void, whatever it says), then makes the call
     * again until it is decided.
     */
    Answer again(ScriptCall call, KeysAt at, LuaResult answer, boolean first) {
        LuaResult r = answer;
        for (int attempt = 1; ; attempt++) {
            String expected = r.stale() && (first || attempt > 1)
                    ? rebuild(call.goodsId(), call.bucket(), r.detail())
                    : markers.truth(folds.get(call.goodsId()), null);
            KeysAt now = new KeysAt(expected, at.next());
            r = scripts.call(call.expecting(expected));
            if (!r.stale()) return new Answer(r, now);
            if (attempt >= MAX_ATTEMPTS)
                throw new RedisUnavailable(
                        "goods " + call.goodsId() + ": its Redis keys moved again after " + attempt + " rebuilds from"
                                + " the ledger fold (found marker '" + r.detail() + "'): is another writer at work?",
                        null);
        }
    }

    /**
     * For a goods answered from the fold with no Lua call (the sold-out gate): its keys are read (the sale's marker)
     * and, when they are not where the fold says, rebuilt — so Redis, and the gateway's door that reads its stock, do
     * not stay behind a loss while the gate answers. A Redis that cannot answer now is left to the next check.
     */
    void verify(long goodsId) {
        try {
            GoodsFold fold = folds.get(goodsId);
            int bucket = fold != null && fold.bucketed() ? fold.bucket : 0;
            String observed = scripts.marker(goodsId, bucket);
            if (!markers.truth(folds.get(goodsId), observed).equals(observed)) rebuild(goodsId, bucket, observed);
        } catch (TaskMigratedException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.debug(
                    "goods {}: its keys could not be checked now ({}); the next check tries again",
                    goodsId,
                    e.toString());
        }
    }

    /** Makes the keys of {@code bucket} (the call's) what the fold says; returns the marker they carry now. */
    private String rebuild(long goodsId, int bucket, String observed) {
        GoodsFold fold = folds.get(goodsId);
        String truth = markers.truth(fold, observed);
        if (truth.equals(observed)) return truth; // the keys are as the fold says; the clocks disagreed on their expiry
        String cause = truth.isEmpty() ? "gone" : observed.isEmpty() || behind(observed, truth) ? "lost" : "ahead";
        if (scripts.ownLease().lapses() != lapsesAtStart) {
            // a peer may have removed this instance and decide its goods now: keys ahead of this fold are its writes
            LOG.warn(
                    "goods {}: keys at marker '{}', this task's fold at '{}', and this instance's lease lapsed since the"
                            + " task started: not rebuilt (a peer may own the goods now), the task rejoins",
                    goodsId,
                    observed,
                    truth);
            throw new TaskMigratedException("goods " + goodsId
                    + ": this instance's lease lapsed since the task started;"
                    + " its keys (marker '" + observed + "', this fold at '" + truth + "') are left to the group's"
                    + " owner, the task rejoins");
        }
        long t0 = System.nanoTime();
        LuaResult restored = scripts.restore(
                goodsId,
                bucket,
                truth,
                fold,
                truth.isEmpty() ? Map.of() : folds.holdings(goodsId),
                fold == null ? 0 : markers.keysEnd(fold));
        scripts.countRebuild(cause);
        LOG.warn(
                "goods {}: Redis keys at marker '{}', the ledger fold at '{}' ({}): rebuilt from the fold ({} buyers, {}"
                        + " units left) in {} ms before deciding again",
                goodsId,
                observed,
                truth,
                cause,
                restored.detail(),
                restored.stockAfter(),
                (System.nanoTime() - t0) / 1_000_000);
        return truth;
    }

    /** Whether Redis's marker is an earlier offset than the fold's (it lost writes) rather than a later one. */
    private static boolean behind(String observed, String truth) {
        try {
            return Long.parseLong(observed) < Long.parseLong(truth);
        } catch (NumberFormatException e) {
            return true;
        }
    }
}
