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
        endIfReleasedEarly(c, o, orderId);
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
     * as {@link #recordSuccess} per outcome. Returns the orders written, or -1 (nothing written) when one of the batch's
     * goods has a release waiting for its order ({@code early_release}): the caller takes the per-record path, which
     * applies it.
     */
    public static int recordSuccesses(Connection c, List<TracedOutcome> batch) throws SQLException {
        Map<String, TracedOutcome> fresh = new LinkedHashMap<>();
        for (TracedOutcome t : batch) fresh.putIfAbsent(LedgerEntry.deductOpId(t.outcome().requestId()), t);
        if (fresh.isEmpty()) return 0;
        if (releasedEarly(c, fresh.values())) return -1;
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

    /** What applying a ledger entry did. */
    public enum LedgerEffect {
        /** Seen before (or a DEDUCTED entry, which arrives as a SUCCESS outcome): nothing changed. */
        NONE,
        /** Stock (and the sale's status) moved. */
        APPLIED,
        /** A RELEASED entry ended the CREATED order it released (or found it already cancelled). */
        ORDER_ENDED,
        /** A RELEASED entry whose order is not written yet: kept in early_release, applied when the order arrives. */
        ORDER_NOT_YET_WRITTEN,
        /** A RELEASED entry for a PAID order: stock moved (it did in Redis), the order stays PAID, an anomaly is recorded. */
        PAID_ORDER_RELEASED
    }

    /**
     * Applies a ledger entry other than DEDUCTED (those arrive as SUCCESS outcomes). A RELEASED entry also ends the
     * order it released, whoever sent the release (sweeper, operator, repair): the unit is back on sale, so the order
     * must neither stay payable nor keep the buyer's live-purchase key (invariant 7; the buyer may buy again).
     */
    public static LedgerEffect applyLedger(Connection c, LedgerEntry e, String traceId) throws SQLException {
        if (e.type() == LedgerType.DEDUCTED) return LedgerEffect.NONE;
        if (!claim(c, e, traceId)) return LedgerEffect.NONE;
        long opened = e.type() == LedgerType.OPENED ? e.quantity() : 0;
        adjustSale(c, e.goodsId(), opened, e.stockDelta());
        if (e.type() == LedgerType.CLOSED || e.type() == LedgerType.OPENED) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE sale SET status = ? WHERE goods_id = ?")) {
                ps.setString(1, e.type() == LedgerType.CLOSED ? "CLOSED" : "OPEN");
                ps.setLong(2, e.goodsId());
                ps.executeUpdate();
            }
        }
        if (e.type() == LedgerType.OPENED && e.commandOffset() != null) endEarlierSales(c, e);
        return e.type() == LedgerType.RELEASED ? endReleasedOrder(c, e) : LedgerEffect.APPLIED;
    }

    /**
     * A new sale of a goods: paid orders of its earlier sales stop being live purchases (they keep their unit and stay
     * PAID), so their buyers may buy in this sale (invariant 2 is per sale). Earlier means the order's purchase command
     * came before the OPENED's command in the goods' partition; the stream opens a goods again only once no buyer of
     * the previous sale is held (released, or the sale's keys expired), so no unpaid order of it is left live here.
     */
    private static void endEarlierSales(Connection c, LedgerEntry e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE purchase_order SET live_user_id = NULL WHERE goods_id = ? "
                + "AND live_user_id IS NOT NULL AND status = 'PAID' AND source_offset < ?")) {
            ps.setLong(1, e.goodsId());
            ps.setLong(2, e.commandOffset());
            ps.executeUpdate();
        }
    }

    /**
     * The order a RELEASED entry gave the units of: the one of its requestId when the release named one (the stream then
     * released only that purchase), else the buyer's live order of the goods (the stream released what the buyer held).
     * Locked, so a payment applied by another writer of the group waits for this decision.
     */
    private static LedgerEffect endReleasedOrder(Connection c, LedgerEntry e) throws SQLException {
        if (e.userId() == null) return LedgerEffect.APPLIED; // the stream always names the buyer; nothing to find without one
        String find = e.requestId() != null
                ? "SELECT order_id, status FROM purchase_order WHERE request_id = ? FOR UPDATE"
                : "SELECT order_id, status FROM purchase_order WHERE goods_id = ? AND live_user_id = ? FOR UPDATE";
        long orderId;
        String status;
        try (PreparedStatement ps = c.prepareStatement(find)) {
            if (e.requestId() != null) {
                ps.setString(1, e.requestId());
            } else {
                ps.setLong(1, e.goodsId());
                ps.setLong(2, e.userId());
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    // the ledger and the outcome topics are read independently: the SUCCESS may not be written yet
                    try (PreparedStatement early = c.prepareStatement(
                            "INSERT IGNORE INTO early_release (op_id, goods_id, user_id, request_id) VALUES (?, ?, ?, ?)")) {
                        early.setString(1, e.opId());
                        early.setLong(2, e.goodsId());
                        early.setLong(3, e.userId());
                        early.setString(4, e.requestId());
                        early.executeUpdate();
                    }
                    return LedgerEffect.ORDER_NOT_YET_WRITTEN;
                }
                orderId = rs.getLong(1);
                status = rs.getString(2);
            }
        }
        if ("PAID".equals(status)) {
            // not undone here: the unit is already back in Redis and maybe resold. Preventing it needs the stream to
            // know payments (docs/decisions.md); the writer makes it visible instead.
            try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO order_anomaly (op_id, kind, goods_id, user_id, order_id, "
                    + "request_id, detail) VALUES (?, 'paid_order_released', ?, ?, ?, ?, ?)")) {
                ps.setString(1, e.opId());
                ps.setLong(2, e.goodsId());
                ps.setLong(3, e.userId());
                ps.setLong(4, orderId);
                ps.setString(5, e.requestId());
                ps.setString(6, "RELEASED entry " + e.opId() + " gave back " + e.quantity() + " unit(s) of a PAID order: "
                        + "refund the buyer or take the unit back from stock");
                ps.executeUpdate();
            }
            return LedgerEffect.PAID_ORDER_RELEASED;
        }
        cancelReleased(c, orderId, e.opId());
        return LedgerEffect.ORDER_ENDED;
    }

    /** CREATED → CANCELLED because its units were released by {@code opId}; its release is done, so the outbox is marked. */
    private static void cancelReleased(Connection c, long orderId, String opId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE purchase_order SET status = 'CANCELLED', live_user_id = NULL, "
                + "cancelled_at = NOW(3), cancel_reason = ?, release_sent_at = COALESCE(release_sent_at, NOW(3)) "
                + "WHERE order_id = ? AND status = 'CREATED'")) {
            ps.setString(1, ("released by " + opId).substring(0, Math.min(120, ("released by " + opId).length())));
            ps.setLong(2, orderId);
            ps.executeUpdate();
        }
    }

    /** Whether any goods of the batch has a release waiting for its order: the fast path then steps aside. */
    private static boolean releasedEarly(Connection c, java.util.Collection<TracedOutcome> batch) throws SQLException {
        java.util.Set<Long> goods = new java.util.TreeSet<>();
        for (TracedOutcome t : batch) goods.add(t.outcome().goodsId());
        String in = String.join(",", java.util.Collections.nCopies(goods.size(), "?"));
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM early_release WHERE goods_id IN (" + in + ") LIMIT 1")) {
            int i = 1;
            for (long g : goods) ps.setLong(i++, g);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * A new order whose release was applied before it was written: it is written CANCELLED at once. The buyer's first
     * unwritten SUCCESS of the goods is the one released (outcomes of a goods arrive in the order they were decided).
     */
    private static void endIfReleasedEarly(Connection c, Outcome o, long orderId) throws SQLException {
        String opId;
        try (PreparedStatement ps = c.prepareStatement("SELECT op_id FROM early_release WHERE goods_id = ? AND user_id = ? "
                + "AND (request_id IS NULL OR request_id = ?) ORDER BY recorded_at, op_id LIMIT 1 FOR UPDATE")) {
            ps.setLong(1, o.goodsId());
            ps.setLong(2, o.userId());
            ps.setString(3, o.requestId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return;
                opId = rs.getString(1);
            }
        }
        cancelReleased(c, orderId, opId);
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM early_release WHERE op_id = ?")) {
            ps.setString(1, opId);
            ps.executeUpdate();
        }
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
