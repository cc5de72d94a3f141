package dev.seckill.order;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQL of order persistence, on a connection whose transaction the caller owns. Every change is claimed
 * first by its ledger op_id (unique), so applying the same change twice is a no-op: that is what makes
 * redelivery and replays harmless.
 */
public final class OrderStore {
    private static final String INSERT_ORDER = "INSERT INTO purchase_order (request_id, goods_id, user_id, quantity, "
            + "status, live_user_id, trace_id, accepted_at, decided_at, source_partition, source_offset) "
            + "VALUES (?, ?, ?, ?, 'CREATED', ?, ?, ?, ?, ?, ?)";

    private OrderStore() {}

    /** Binds a SUCCESS outcome to {@link #INSERT_ORDER}: a CREATED, live order. */
    private static void bindOrder(PreparedStatement ps, Outcome o, String traceId) throws SQLException {
        ps.setString(1, o.requestId());
        ps.setLong(2, o.goodsId());
        ps.setLong(3, o.userId());
        ps.setInt(4, o.quantity());
        ps.setLong(5, o.userId());
        ps.setString(6, traceId);
        ps.setObject(7, utc(o.acceptedAt()));
        ps.setObject(8, utc(o.decidedAt()));
        ps.setInt(9, o.partition());
        ps.setLong(10, o.offset());
    }

    /** Persists one SUCCESS: ledger row, order row, DB stock. Returns false when it was already applied. */
    public static boolean recordSuccess(Connection c, Outcome o, String traceId) throws SQLException {
        LedgerEntry deduct = LedgerEntry.of(LedgerEntry.deductOpId(o.requestId()), o.goodsId(), LedgerType.DEDUCTED,
                o.quantity(), o.userId(), o.requestId(), null, o.stockAfter(), o.decidedAt());
        if (!claim(c, deduct, traceId)) return false;
        long orderId = insertOrder(c, o, traceId);
        try (PreparedStatement ps = c.prepareStatement("UPDATE stock_ledger SET order_id = ? WHERE op_id = ?")) {
            ps.setLong(1, orderId);
            ps.setString(2, deduct.opId());
            ps.executeUpdate();
        }
        adjustSale(c, o.goodsId(), 0, -o.quantity());
        return true;
    }

    /** A SUCCESS outcome with the trace id of its record. */
    public record TracedOutcome(Outcome outcome, String traceId) {}

    /**
     * The fast path for a batch of SUCCESS outcomes never seen before (the steady state): multi-row inserts of ledger
     * rows and orders, and one stock update per goods. Any outcome applied before makes the order insert fail on its
     * unique request_id (or the ledger insert on its unique op_id: SQL state 23); the caller then rolls back and takes the per-record path, which skips it. Same effect
     * as {@link #recordSuccess} per outcome. Returns the orders written.
     */
    public static int recordSuccesses(Connection c, List<TracedOutcome> batch) throws SQLException {
        Map<String, TracedOutcome> fresh = new LinkedHashMap<>();
        for (TracedOutcome t : batch) fresh.putIfAbsent(LedgerEntry.deductOpId(t.outcome().requestId()), t);
        if (fresh.isEmpty()) return 0;
        // orders first, so each ledger row can name its order (as the per-record path does): the generated keys of a
        // multi-row INSERT come back in row order
        List<TracedOutcome> rows = List.copyOf(fresh.values());
        long[] orderIds = new long[rows.size()];
        try (PreparedStatement order = c.prepareStatement(INSERT_ORDER, Statement.RETURN_GENERATED_KEYS)) {
            for (TracedOutcome t : rows) {
                bindOrder(order, t.outcome(), t.traceId());
                order.addBatch();
            }
            order.executeBatch();
            try (ResultSet keys = order.getGeneratedKeys()) {
                for (int i = 0; i < orderIds.length; i++) {
                    if (!keys.next()) throw new SQLException("fewer generated order ids than orders", "HY000");
                    orderIds[i] = keys.getLong(1);
                }
            }
        }
        try (PreparedStatement ledger = c.prepareStatement("INSERT INTO stock_ledger (op_id, goods_id, type, quantity, user_id, "
                + "request_id, order_id, stock_after, at, trace_id) VALUES (?, ?, 'DEDUCTED', ?, ?, ?, ?, ?, ?, ?)")) {
            Map<Long, Long> deducted = new LinkedHashMap<>();
            for (int i = 0; i < rows.size(); i++) {
                Outcome o = rows.get(i).outcome();
                ledger.setString(1, LedgerEntry.deductOpId(o.requestId()));
                ledger.setLong(2, o.goodsId());
                ledger.setLong(3, o.quantity());
                ledger.setLong(4, o.userId());
                ledger.setString(5, o.requestId());
                ledger.setLong(6, orderIds[i]);
                ledger.setLong(7, o.stockAfter());
                ledger.setObject(8, utc(o.decidedAt()));
                ledger.setString(9, rows.get(i).traceId());
                ledger.addBatch();
                deducted.merge(o.goodsId(), (long) o.quantity(), Long::sum);
            }
            ledger.executeBatch();
            for (Map.Entry<Long, Long> d : deducted.entrySet()) adjustSale(c, d.getKey(), 0, -d.getValue());
        }
        return fresh.size();
    }

    /** Applies a ledger entry other than DEDUCTED (those arrive as SUCCESS outcomes). False when already applied. */
    public static boolean applyLedger(Connection c, LedgerEntry e, String traceId) throws SQLException {
        if (e.type() == LedgerType.DEDUCTED) return false;
        if (!claim(c, e, traceId)) return false;
        long opened = e.type() == LedgerType.OPENED ? e.quantity() : 0;
        adjustSale(c, e.goodsId(), opened, e.stockDelta());
        if (e.type() == LedgerType.CLOSED || e.type() == LedgerType.OPENED) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE sale SET status = ? WHERE goods_id = ?")) {
                ps.setString(1, e.type() == LedgerType.CLOSED ? "CLOSED" : "OPEN");
                ps.setLong(2, e.goodsId());
                ps.executeUpdate();
            }
        }
        return true;
    }

    static boolean claim(Connection c, LedgerEntry e, String traceId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO stock_ledger "
                + "(op_id, goods_id, type, quantity, user_id, request_id, order_id, stock_after, at, trace_id) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, e.opId());
            ps.setLong(2, e.goodsId());
            ps.setString(3, e.type().name());
            ps.setLong(4, e.quantity());
            ps.setObject(5, e.userId());
            ps.setString(6, e.requestId());
            ps.setObject(7, e.orderId());
            ps.setLong(8, e.stockAfter());
            ps.setObject(9, utc(e.at()));
            ps.setString(10, traceId);
            return ps.executeUpdate() == 1;
        }
    }

    /** Upserts the sale row by deltas, so ledger entries may arrive in any order across topics. */
    static void adjustSale(Connection c, long goodsId, long openedDelta, long stockDelta) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO sale (goods_id, opened_stock, stock) VALUES (?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE opened_stock = opened_stock + VALUES(opened_stock), stock = stock + VALUES(stock)")) {
            ps.setLong(1, goodsId);
            ps.setLong(2, openedDelta);
            ps.setLong(3, stockDelta);
            ps.executeUpdate();
        }
    }

    private static long insertOrder(Connection c, Outcome o, String traceId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT_ORDER, Statement.RETURN_GENERATED_KEYS)) {
            bindOrder(ps, o, traceId);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLIntegrityConstraintViolationException e) {
            if (e.getMessage() != null && e.getMessage().contains("uk_order_request")) {
                return existingOrderId(c, o.requestId()); // written before (e.g. by a repair): keep that row
            }
            throw e;
        }
    }

    private static long existingOrderId(Connection c, String requestId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT order_id FROM purchase_order WHERE request_id = ?")) {
            ps.setString(1, requestId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    static LocalDateTime utc(Instant i) { return i == null ? null : LocalDateTime.ofInstant(i, ZoneOffset.UTC); }
}
