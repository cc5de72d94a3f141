package dev.seckill.order.store;

import static dev.seckill.order.store.SqlTime.utcOrNull;

import dev.seckill.contracts.ledger.LedgerEntry;
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
 * DEDUCTED ledger entries → order rows, their DEDUCTED rows in {@code stock_ledger} and DB stock, on a connection whose
 * transaction the caller owns: one at a time (the per-record path) or a run at once (the fast path). The writer reads
 * them from the goods' ledger partition, so a goods' orders, releases, payments and opens are applied in the stream's
 * order (docs/invariants.md, invariant 3). Each is claimed by its op_id {@code deduct:<goodsId>:<requestId>}, so a
 * redelivered entry is a no-op. A purchase is (goodsId, requestId) within one sale: a requestId the stream forgot
 * (a week after its sale's keys expired) and a buyer reused in a later sale is a new purchase with its own order,
 * claimed as {@code deduct:<goodsId>:<requestId>@<open offset>} (unique key {@code uk_order_goods_request} is
 * (goods_id, request_id, sale_offset)).
 */
public final class Orders {
    private static final String INSERT_ORDER = "INSERT INTO purchase_order (request_id, goods_id, user_id, quantity, "
            + "status, live_user_id, trace_id, accepted_at, decided_at, source_partition, source_offset, sale_offset) "
            + "VALUES (?, ?, ?, ?, 'CREATED', ?, ?, ?, ?, ?, ?, ?)";

    private static final String INSERT_DEDUCTED = "INSERT INTO stock_ledger (op_id, goods_id, type, quantity, user_id, "
            + "request_id, order_id, stock_after, at, trace_id) VALUES (?, ?, 'DEDUCTED', ?, ?, ?, ?, ?, ?, ?)";

    /**
     * An order of the sale opened at the offset bound twice: written with it ({@code sale_offset}), or before orders
     * named their sale and placed at or after its open, or not placed (an unplaced order is stamped placed before any
     * sale when the next sale opens, {@code StockLedger.endEarlierSales}).
     */
    static final String IN_SALE =
            "(sale_offset = ? OR (sale_offset = -1 AND (source_offset IS NULL OR source_offset >= ?)))";

    private Orders() {}

    /**
     * Persists one purchase: its ledger row, its order row, DB stock. Returns false when it was already applied (a
     * redelivery); a requestId reused in a later sale is written as that sale's order.
     */
    public static boolean record(Connection c, Deduction d) throws SQLException {
        String opId = LedgerEntry.deductOpId(d.entry().goodsId(), d.entry().requestId());
        LedgerEntry e = d.entry().withOpId(opId); // claimed as the fast path claims it, whatever opId it came with
        if (!StockLedger.claim(c, e, d.traceId())) {
            if (d.saleOffset() < 0 || hasOrderInSale(c, e, d.saleOffset())) return false;
            // the stream forgot the requestId and sold it again in a later sale: a new purchase, claimed by its sale
            opId = opId + "@" + d.saleOffset();
            if (!StockLedger.claim(c, e.withOpId(opId), d.traceId())) return false;
        }
        long orderId = insertOrder(c, d);
        Releases.endIfReleasedEarly(c, e, orderId);
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE stock_ledger SET order_id = ? WHERE goods_id = ? AND op_id = ?")) {
            ps.setLong(1, orderId);
            ps.setLong(2, e.goodsId());
            ps.setString(3, opId);
            ps.executeUpdate();
        }
        StockLedger.adjustSale(c, e.goodsId(), 0, -e.quantity());
        return true;
    }

    /**
     * Whether the goods has an order for the requestId in the sale opened at {@code saleOffset}: written by this writer
     * ({@code sale_offset}), by the reconciler (it places its orders at their sale's open), or before orders named their
     * sale (then an order placed at or after the open, or not placed at all, is taken as this sale's: never two orders).
     */
    private static boolean hasOrderInSale(Connection c, LedgerEntry e, long saleOffset) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT 1 FROM purchase_order WHERE goods_id = ? AND request_id = ? AND " + IN_SALE + " LIMIT 1")) {
            ps.setLong(1, e.goodsId());
            ps.setString(2, e.requestId());
            ps.setLong(3, saleOffset);
            ps.setLong(4, saleOffset);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * The fast path for a run of purchases never seen before (the steady state): multi-row inserts of ledger rows and
     * orders, and one stock update per goods. Any purchase applied before makes the order insert fail on its unique
     * (goods_id, request_id, sale_offset), or the ledger insert on its unique (goods_id, op_id) (SQL state 23); the caller
     * then rolls back and takes the per-record path, which tells a redelivery from a reuse. Same effect as
     * {@link #record} per purchase. Returns the orders written, or -1 (nothing written) when one of the run's goods has
     * a release waiting for its order ({@code early_release}): the caller takes the per-record path, which applies it.
     */
    public static int recordAll(Connection c, List<Deduction> run) throws SQLException {
        Map<String, Deduction> fresh = new LinkedHashMap<>();
        for (Deduction d : run)
            fresh.putIfAbsent(
                    LedgerEntry.deductOpId(d.entry().goodsId(), d.entry().requestId()), d);
        if (fresh.isEmpty()) return 0;
        if (Releases.anyWaitingRelease(c, fresh.values())) return -1;
        // orders first, so each ledger row can name its order (as the per-record path does): the generated keys of a
        // multi-row INSERT come back in row order
        List<Deduction> rows = List.copyOf(fresh.values());
        List<Long> orderIds = insertOrders(c, rows);
        Map<Long, Long> deductedByGoods = insertDeductions(c, rows, orderIds);
        for (Map.Entry<Long, Long> g : deductedByGoods.entrySet())
            StockLedger.adjustSale(c, g.getKey(), 0, -g.getValue());
        return fresh.size();
    }

    /** One multi-row INSERT of CREATED orders; their generated ids, in row order. */
    private static List<Long> insertOrders(Connection c, List<Deduction> rows) throws SQLException {
        List<Long> orderIds = new ArrayList<>(rows.size());
        try (PreparedStatement order = c.prepareStatement(INSERT_ORDER, Statement.RETURN_GENERATED_KEYS)) {
            for (Deduction d : rows) {
                bindOrder(order, d);
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

    /** One multi-row INSERT of the purchases' DEDUCTED ledger rows, each naming its order; the units deducted per goods. */
    private static Map<Long, Long> insertDeductions(Connection c, List<Deduction> rows, List<Long> orderIds)
            throws SQLException {
        Map<Long, Long> deducted = new LinkedHashMap<>();
        try (PreparedStatement ledger = c.prepareStatement(INSERT_DEDUCTED)) {
            for (int i = 0; i < rows.size(); i++) {
                LedgerEntry e = rows.get(i).entry();
                ledger.setString(1, LedgerEntry.deductOpId(e.goodsId(), e.requestId()));
                ledger.setLong(2, e.goodsId());
                ledger.setLong(3, e.quantity());
                ledger.setLong(4, e.userId());
                ledger.setString(5, e.requestId());
                ledger.setLong(6, orderIds.get(i));
                ledger.setLong(7, e.stockAfter());
                ledger.setObject(8, utcOrNull(e.at()));
                ledger.setString(9, rows.get(i).traceId());
                ledger.addBatch();
                deducted.merge(e.goodsId(), e.quantity(), Long::sum);
            }
            ledger.executeBatch();
        }
        return deducted;
    }

    /** Binds a purchase to {@link #INSERT_ORDER}: a CREATED, live order. */
    private static void bindOrder(PreparedStatement ps, Deduction d) throws SQLException {
        LedgerEntry e = d.entry();
        ps.setString(1, e.requestId());
        ps.setLong(2, e.goodsId());
        ps.setLong(3, e.userId());
        ps.setInt(4, (int) e.quantity());
        ps.setLong(5, e.userId());
        ps.setString(6, d.traceId());
        ps.setObject(7, utcOrNull(e.acceptedAt()));
        ps.setObject(8, utcOrNull(e.at()));
        ps.setInt(9, d.partition());
        ps.setObject(10, e.commandOffset());
        ps.setLong(11, d.saleOffset());
    }

    private static long insertOrder(Connection c, Deduction d) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT_ORDER, Statement.RETURN_GENERATED_KEYS)) {
            bindOrder(ps, d);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLIntegrityConstraintViolationException ex) {
            // written before (e.g. by a repair, which writes it as the buyer's live order): keep it. The server names
            // the first unique key the row breaks, uk_order_live_buyer before uk_order_goods_request: look it up
            Long existing = existingOrderId(c, d);
            if (existing != null) return existing;
            throw ex;
        }
    }

    /** The goods' order of the requestId in the purchase's sale (a reused requestId has one per sale), or null. */
    private static Long existingOrderId(Connection c, Deduction d) throws SQLException {
        String sql = "SELECT order_id FROM purchase_order WHERE goods_id = ? AND request_id = ?"
                + (d.saleOffset() < 0 ? "" : " AND " + IN_SALE) + " ORDER BY order_id DESC LIMIT 1";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, d.entry().goodsId());
            ps.setString(2, d.entry().requestId());
            if (d.saleOffset() >= 0) {
                ps.setLong(3, d.saleOffset());
                ps.setLong(4, d.saleOffset());
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }
}
