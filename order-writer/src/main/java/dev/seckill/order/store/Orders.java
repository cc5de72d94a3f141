package dev.seckill.order.store;

import static dev.seckill.order.store.SqlTime.utc;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SUCCESS outcomes → order rows, their DEDUCTED ledger rows and DB stock, on a connection whose transaction the caller
 * owns: one at a time (the per-record path) or a batch at once (the fast path). Each is claimed by its ledger op_id
 * {@code deduct:<goodsId>:<requestId>}, so a redelivered outcome is a no-op. A purchase is the pair (goodsId, requestId):
 * two goods' purchases with the same requestId are two orders (unique key {@code uk_order_goods_request}).
 */
public final class Orders {
    private static final String INSERT_ORDER = "INSERT INTO purchase_order (request_id, goods_id, user_id, quantity, "
            + "status, live_user_id, trace_id, accepted_at, decided_at, source_partition, source_offset) "
            + "VALUES (?, ?, ?, ?, 'CREATED', ?, ?, ?, ?, ?, ?)";

    private Orders() {}

    /** Persists one SUCCESS: ledger row, order row, DB stock. Returns false when it was already applied. */
    public static boolean recordSuccess(Connection c, Outcome o, String traceId) throws SQLException {
        LedgerEntry deduct = LedgerEntry.of(
                LedgerEntry.deductOpId(o.goodsId(), o.requestId()),
                o.goodsId(),
                LedgerType.DEDUCTED,
                o.quantity(),
                o.userId(),
                o.requestId(),
                null,
                o.stockAfter(),
                o.decidedAt());
        if (!StockLedger.claim(c, deduct, traceId)) return false;
        long orderId = insertOrder(c, o, traceId);
        Releases.endIfReleasedEarly(c, o, orderId);
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE stock_ledger SET order_id = ? WHERE goods_id = ? AND op_id = ?")) {
            ps.setLong(1, orderId);
            ps.setLong(2, o.goodsId());
            ps.setString(3, deduct.opId());
            ps.executeUpdate();
        }
        StockLedger.adjustSale(c, o.goodsId(), 0, -o.quantity());
        return true;
    }

    /**
     * The fast path for a batch of SUCCESS outcomes never seen before (the steady state): multi-row inserts of ledger
     * rows and orders, and one stock update per goods. Any outcome applied before makes the order insert fail on its
     * unique (goods_id, request_id) (or the ledger insert on its unique op_id: SQL state 23); the caller then rolls back and takes
     * the per-record path, which skips it. Same effect as {@link #recordSuccess} per outcome. Returns the orders written,
     * or -1 (nothing written) when one of the batch's goods has a release waiting for its order ({@code early_release}):
     * the caller takes the per-record path, which applies it.
     */
    public static int recordSuccesses(Connection c, List<TracedOutcome> batch) throws SQLException {
        Map<String, TracedOutcome> fresh = new LinkedHashMap<>();
        for (TracedOutcome t : batch)
            fresh.putIfAbsent(
                    LedgerEntry.deductOpId(t.outcome().goodsId(), t.outcome().requestId()), t);
        if (fresh.isEmpty()) return 0;
        if (Releases.anyWaitingRelease(c, fresh.values())) return -1;
        // orders first, so each ledger row can name its order (as the per-record path does): the generated keys of a
        // multi-row INSERT come back in row order
        List<TracedOutcome> rows = List.copyOf(fresh.values());
        List<Long> orderIds = insertOrders(c, rows);
        Map<Long, Long> deductedByGoods = insertDeductions(c, rows, orderIds);
        for (Map.Entry<Long, Long> d : deductedByGoods.entrySet())
            StockLedger.adjustSale(c, d.getKey(), 0, -d.getValue());
        return fresh.size();
    }

    /** One multi-row INSERT of CREATED orders; their generated ids, in row order. */
    private static List<Long> insertOrders(Connection c, List<TracedOutcome> rows) throws SQLException {
        List<Long> orderIds = new ArrayList<>(rows.size());
        try (PreparedStatement order = c.prepareStatement(INSERT_ORDER, Statement.RETURN_GENERATED_KEYS)) {
            for (TracedOutcome t : rows) {
                bindOrder(order, t.outcome(), t.traceId());
                order.addBatch();
            }
            order.executeBatch();
            try (ResultSet keys = order.getGeneratedKeys()) {
                for (int i = 0; i < rows.size(); i++) {
                    if (!keys.next()) throw new SQLException("fewer generated order ids than orders", "HY000");
                    orderIds.add(keys.getLong(1));
                }
            }
        }
        return orderIds;
    }

    /** One multi-row INSERT of the orders' DEDUCTED ledger rows, each naming its order; the units deducted per goods. */
    private static Map<Long, Long> insertDeductions(Connection c, List<TracedOutcome> rows, List<Long> orderIds)
            throws SQLException {
        Map<Long, Long> deducted = new LinkedHashMap<>();
        try (PreparedStatement ledger = c.prepareStatement(
                "INSERT INTO stock_ledger (op_id, goods_id, type, quantity, user_id, "
                        + "request_id, order_id, stock_after, at, trace_id) VALUES (?, ?, 'DEDUCTED', ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < rows.size(); i++) {
                Outcome o = rows.get(i).outcome();
                ledger.setString(1, LedgerEntry.deductOpId(o.goodsId(), o.requestId()));
                ledger.setLong(2, o.goodsId());
                ledger.setLong(3, o.quantity());
                ledger.setLong(4, o.userId());
                ledger.setString(5, o.requestId());
                ledger.setLong(6, orderIds.get(i));
                ledger.setLong(7, o.stockAfter());
                ledger.setObject(8, utc(o.decidedAt()));
                ledger.setString(9, rows.get(i).traceId());
                ledger.addBatch();
                deducted.merge(o.goodsId(), (long) o.quantity(), Long::sum);
            }
            ledger.executeBatch();
        }
        return deducted;
    }

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

    private static long insertOrder(Connection c, Outcome o, String traceId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT_ORDER, Statement.RETURN_GENERATED_KEYS)) {
            bindOrder(ps, o, traceId);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLIntegrityConstraintViolationException e) {
            // written before (e.g. by a repair, which writes it as the buyer's live order): keep it. The server names
            // the first unique key the row breaks, uk_order_live_buyer before uk_order_goods_request: look it up
            Long existing = existingOrderId(c, o.goodsId(), o.requestId());
            if (existing != null) return existing;
            throw e;
        }
    }

    private static Long existingOrderId(Connection c, long goodsId, String requestId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT order_id FROM purchase_order WHERE goods_id = ? AND request_id = ?")) {
            ps.setLong(1, goodsId);
            ps.setString(2, requestId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }
}
