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
 * The write-up's section 2.1: {@code SELECT … FOR UPDATE} on the goods' stock row, then — under that lock, so every
 * purchase of the goods queues behind the one before — the buyer check, the decrement and the order, in one
 * transaction. The unique key on (goods, live buyer) is the schema's backstop.
 */
final class PessimisticLock implements Strategy {
    private final DataSource db;

    PessimisticLock(DataSource db) {
        this.db = db;
    }

    @Override
    public Answer buy(long goodsId, long userId) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                Answer a = decide(c, goodsId, userId);
                if (a == Answer.SUCCESS) c.commit();
                else c.rollback();
                return a;
            } catch (SQLIntegrityConstraintViolationException twice) {
                c.rollback();
                return Answer.DUPLICATE;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLTransientConnectionException poolEmpty) {
            return Answer.BUSY;
        }
    }

    private static Answer decide(Connection c, long goodsId, long userId) throws SQLException {
        long stock;
        try (PreparedStatement lock = c.prepareStatement("SELECT stock FROM sale WHERE goods_id = ? FOR UPDATE")) {
            lock.setLong(1, goodsId);
            try (ResultSet rs = lock.executeQuery()) {
                if (!rs.next()) return Answer.SOLD_OUT; // no sale of that goods
                stock = rs.getLong(1);
            }
        }
        if (BaselineOrders.holds(c, goodsId, userId)) return Answer.DUPLICATE;
        if (stock <= 0) return Answer.SOLD_OUT;
        try (PreparedStatement take = c.prepareStatement("UPDATE sale SET stock = stock - 1 WHERE goods_id = ?")) {
            take.setLong(1, goodsId);
            take.executeUpdate();
        }
        BaselineOrders.insert(c, goodsId, userId);
        return Answer.SUCCESS;
    }
}
