package dev.seckill.infra.bench.strategies;

import dev.seckill.infra.harness.buyers.Answer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransientConnectionException;
import javax.sql.DataSource;

/**
 * The write-up's section 2.2: read the stock and its version, then {@code UPDATE sale SET stock = stock - 1, version =
 * version + 1 WHERE goods_id = ? AND stock > 0 AND version = ?} and the order in one transaction. A version that moved
 * meanwhile is a conflict: retried up to {@link #ATTEMPTS} times, then the buyer is told to try again (503) — the
 * write-up's "冲突概率高，失败的请求需要重试". Each attempt reads the committed row (its own statement outside the
 * transaction), or a REPEATABLE READ snapshot would show the same version forever.
 */
final class OptimisticLock implements Strategy {
    static final int ATTEMPTS = 3;

    private final DataSource db;

    OptimisticLock(DataSource db) {
        this.db = db;
    }

    @Override
    public Answer buy(long goodsId, long userId) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(true);
            if (BaselineOrders.holds(c, goodsId, userId)) return Answer.DUPLICATE;
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                long[] row = read(c, goodsId);
                if (row == null || row[0] <= 0) return Answer.SOLD_OUT;
                Answer a = attempt(c, goodsId, userId, row[1]);
                if (a != null) return a;
            }
            return Answer.BUSY;
        } catch (SQLTransientConnectionException poolEmpty) {
            return Answer.BUSY;
        }
    }

    /** {stock, version}, or null when there is no sale of the goods. */
    private static long[] read(Connection c, long goodsId) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT stock, version FROM sale WHERE goods_id = ?")) {
            q.setLong(1, goodsId);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : null;
            }
        }
    }

    /** The answer, or null on a version conflict. */
    private static Answer attempt(Connection c, long goodsId, long userId, long version) throws SQLException {
        c.setAutoCommit(false);
        try (PreparedStatement take = c.prepareStatement("UPDATE sale SET stock = stock - 1, version = version + 1"
                + " WHERE goods_id = ? AND stock > 0 AND version = ?")) {
            take.setLong(1, goodsId);
            take.setLong(2, version);
            if (take.executeUpdate() == 0) {
                c.rollback();
                return null;
            }
            BaselineOrders.insert(c, goodsId, userId);
            c.commit();
            return Answer.SUCCESS;
        } catch (SQLIntegrityConstraintViolationException twice) {
            c.rollback();
            return Answer.DUPLICATE;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }
}
