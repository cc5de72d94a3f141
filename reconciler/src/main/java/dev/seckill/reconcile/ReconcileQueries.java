package dev.seckill.reconcile;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reconciler's SQL, apart from its judgement: what the durable ledger fold and the order tables say about a goods,
 * and the two writes a repair makes (an order row, an audit row).
 */
final class ReconcileQueries {
    private ReconcileQueries() {}

    /**
     * The ledger fold of one goods: units opened, deducted and released, when its sale's keys expire, and the command
     * offset of its latest OPENED (null: not known).
     */
    /** {@code buckets}: how many buckets the goods' current sale is split into (1: not split). */
    record LedgerFold(
            long opened, long deducted, long released, long keysExpireAtMs, Long openedCommandOffset, int buckets) {
        /** The units left by the ledger: opened − deducted + released. */
        long stock() {
            return opened - deducted + released;
        }
    }

    /** A live buyer by the ledger: the purchase that holds and how many units. */
    record Holding(String requestId, long quantity) {}

    /** What the DB's own tables say about a goods (null: no such row). */
    record DbSide(Long saleStock, Long liveUnits, Long ledgerStock) {}

    static List<Long> goods(Connection c) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT goods_id FROM reconcile_fold ORDER BY goods_id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    static LedgerFold fold(Connection c, long goods) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT opened, deducted, released, COALESCE(keys_expire_at_ms, 0), opened_command_offset, buckets "
                        + "FROM reconcile_fold WHERE goods_id = ?")) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return new LedgerFold(0, 0, 0, 0, null, 1);
                long offset = rs.getLong(5);
                Long openedAt = rs.wasNull() ? null : offset;
                return new LedgerFold(
                        rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), openedAt, rs.getInt(6));
            }
        }
    }

    /** userId → holding, by the ledger. */
    static Map<Long, Holding> holdings(Connection c, long goods) throws SQLException {
        Map<Long, Holding> out = new HashMap<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT user_id, request_id, quantity FROM reconcile_holding WHERE goods_id = ?")) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getLong(1), new Holding(rs.getString(2), rs.getLong(3)));
            }
        }
        return out;
    }

    /** requestId → userId of every live order (CREATED or PAID, holding stock). */
    static Map<String, Long> liveOrders(Connection c, long goods) throws SQLException {
        Map<String, Long> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT request_id, user_id FROM purchase_order WHERE goods_id = ? AND live_user_id IS NOT NULL")) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }

    static DbSide dbSide(Connection c, long goods) throws SQLException {
        return new DbSide(
                single(c, "SELECT stock FROM sale WHERE goods_id = ?", goods),
                single(
                        c,
                        "SELECT COALESCE(SUM(quantity), 0) FROM purchase_order WHERE goods_id = ? AND live_user_id IS NOT NULL",
                        goods),
                single(
                        c,
                        "SELECT SUM(CASE type WHEN 'DEDUCTED' THEN -quantity WHEN 'CLOSED' THEN 0 WHEN 'RESTORED' THEN 0 "
                                + "ELSE quantity END) FROM stock_ledger WHERE goods_id = ?",
                        goods));
    }

    /** Sets the goods' DB stock to {@code to} if it still is {@code from} (a writer's update in between wins); true if set. */
    static boolean setSaleStock(Connection c, long goods, long from, long to) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE sale SET stock = ? WHERE goods_id = ? AND stock = ?")) {
            ps.setLong(1, to);
            ps.setLong(2, goods);
            ps.setLong(3, from);
            return ps.executeUpdate() == 1;
        }
    }

    /** Releases of PAID orders order-writer met and recorded instead of applying (invariant 7). */
    static long paidReleased(Connection c, long goods) throws SQLException {
        Long n = single(
                c, "SELECT COUNT(*) FROM order_anomaly WHERE goods_id = ? AND kind = 'paid_order_released'", goods);
        return n == null ? 0 : n;
    }

    /**
     * Whether the goods has an order (in any status) for this requestId in the sale opened at {@code saleOffset} (any
     * sale when null): a purchase is (goods, requestId) within a sale, as order-writer keeps it ({@code sale_offset};
     * an order from before orders named their sale counts when it is placed at or after the open, or not placed).
     */
    static boolean orderExists(Connection c, long goods, String requestId, Long saleOffset) throws SQLException {
        String sql = "SELECT 1 FROM purchase_order WHERE goods_id = ? AND request_id = ?"
                + (saleOffset == null
                        ? ""
                        : " AND (sale_offset = ? OR (sale_offset = -1 AND (source_offset IS NULL OR source_offset >= ?)))");
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, goods);
            ps.setString(2, requestId);
            if (saleOffset != null) {
                ps.setLong(3, saleOffset);
                ps.setLong(4, saleOffset);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * The order a SUCCESS should have made (idempotent by (goods_id, request_id)), placed at its sale's OPENED in the
     * goods' commands partition ({@code sourceOffset}; its purchase came after it), so that the next sale's OPENED ends
     * it as it ends the writer's orders. False when nothing was written: the buyer holds another live order of the
     * goods ({@code uk_order_live_buyer}), or the order exists.
     */
    static boolean writeOrder(
            Connection c, long goods, long user, String requestId, long quantity, int partition, Long sourceOffset)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT IGNORE INTO purchase_order (request_id, goods_id, user_id, quantity, "
                        + "status, live_user_id, trace_id, source_partition, source_offset, sale_offset) "
                        + "VALUES (?, ?, ?, ?, 'CREATED', ?, 'reconciler', ?, ?, ?)")) {
            ps.setString(1, requestId);
            ps.setLong(2, goods);
            ps.setLong(3, user);
            ps.setLong(4, quantity);
            ps.setLong(5, user);
            ps.setInt(6, partition);
            ps.setObject(7, sourceOffset);
            ps.setLong(8, sourceOffset == null ? -1 : sourceOffset);
            return ps.executeUpdate() == 1;
        }
    }

    static void audit(Connection c, long goods, String kind, String action, String detail) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO reconcile_audit (goods_id, kind, action, detail) VALUES (?, ?, ?, ?)")) {
            ps.setLong(1, goods);
            ps.setString(2, kind);
            ps.setString(3, action);
            ps.setString(4, detail.length() > 500 ? detail.substring(0, 500) : detail);
            ps.executeUpdate();
        }
    }

    static boolean audited(Connection c, long goods, String kind, String detail) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT 1 FROM reconcile_audit WHERE goods_id = ? AND kind = ? AND detail = ? LIMIT 1")) {
            ps.setLong(1, goods);
            ps.setString(2, kind);
            ps.setString(3, detail);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static Long single(Connection c, String sql, long goods) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                long v = rs.getLong(1);
                return rs.wasNull() ? null : v;
            }
        }
    }
}
