package dev.seckill.infra.harness;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;

/** Waits until the pipeline has decided every acknowledged request and persisted every SUCCESS. */
public final class Drain {
    private Drain() {}

    /** Returns true when drained within the timeout; {@code progress} receives the number of decided requests. */
    public static boolean await(
            Pipeline p, OutcomeLog log, long goodsId, Set<String> acceptedIds, Duration timeout, IntConsumer progress)
            throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<Outcome> outcomes = log.snapshot();
            Set<String> decided = new HashSet<>();
            long successes = 0;
            for (Outcome o : outcomes) {
                if (o.goodsId() != goodsId) continue;
                decided.add(o.requestId());
                if (o.outcome() == OutcomeKind.SUCCESS) successes++;
            }
            int decidedAccepted =
                    (int) acceptedIds.stream().filter(decided::contains).count();
            progress.accept(decidedAccepted);
            try {
                if (decidedAccepted == acceptedIds.size()
                        && ordersIn(p, goodsId) == successes
                        && stocksAgree(p, goodsId)) return true;
            } catch (SQLException e) {
                // the database is not answering (yet): not drained, look again
            }
            try {
                Thread.sleep(100); // polling the sinks for the pipeline to drain
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Waits until every request in {@code ids} has an outcome; true when that happened within the timeout. */
    public static boolean awaitDecided(OutcomeLog log, Set<String> ids, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Set<String> decided = new HashSet<>();
            log.snapshot().forEach(o -> decided.add(o.requestId()));
            if (decided.containsAll(ids)) return true;
            try {
                Thread.sleep(100); // polling the outcome topics
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    static long ordersIn(Pipeline p, long goodsId) throws SQLException {
        try (Connection c = p.db().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ?")) {
            ps.setLong(1, goodsId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    static boolean stocksAgree(Pipeline p, long goodsId) throws SQLException {
        String redis = p.redis().get(p.keys().stock(goodsId));
        try (Connection c = p.db().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT stock FROM sale WHERE goods_id = ?")) {
            ps.setLong(1, goodsId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && redis != null && Long.parseLong(redis) == rs.getLong(1);
            }
        }
    }
}
