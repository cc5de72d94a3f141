package dev.seckill.infra.bench.strategies;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

/** The order rows the baselines write, in the pipeline's own {@code purchase_order} table (one live order per buyer). */
final class BaselineOrders {
    private BaselineOrders() {}

    static final String INSERT =
            "INSERT INTO purchase_order (request_id, goods_id, user_id, quantity, status, live_user_id,"
                    + " decided_at) VALUES (?, ?, ?, 1, 'CREATED', ?, UTC_TIMESTAMP(3))";

    static boolean holds(Connection c, long goodsId, long userId) throws SQLException {
        try (PreparedStatement q =
                c.prepareStatement("SELECT 1 FROM purchase_order WHERE goods_id = ? AND live_user_id = ?")) {
            q.setLong(1, goodsId);
            q.setLong(2, userId);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next();
            }
        }
    }

    static void insert(Connection c, long goodsId, long userId) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(INSERT)) {
            bind(insert, UUID.randomUUID().toString(), goodsId, userId);
            insert.executeUpdate();
        }
    }

    static void bind(PreparedStatement insert, String requestId, long goodsId, long userId) throws SQLException {
        insert.setString(1, requestId);
        insert.setLong(2, goodsId);
        insert.setLong(3, userId);
        insert.setLong(4, userId);
    }
}
