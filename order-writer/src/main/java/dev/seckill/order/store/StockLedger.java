package dev.seckill.order.store;

import static dev.seckill.order.store.SqlTime.utcOrNull;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The stock ledger and the sale rows, on a connection whose transaction the caller owns. Every change is claimed first
 * by its ledger op_id (unique), so applying the same change twice is a no-op: that is what makes redelivery and replays
 * harmless.
 */
public final class StockLedger {
    private StockLedger() {}

    /**
     * Applies a ledger entry other than DEDUCTED (those are orders: {@link Orders}). A RELEASED entry also ends the
     * order it released, whoever sent the release (sweeper, operator, repair): the unit is back on sale, so the order
     * must neither stay payable nor keep the buyer's live-purchase key (invariant 7; the buyer may buy again).
     * TRANSFERRED_OUT and TRANSFERRED_IN (a bucketed goods' units moving between its buckets) change the goods' one
     * {@code sale.stock} by their deltas, netting to 0 once both are applied. {@code partition}: the record's, which is
     * the bucket's commands partition (every topic is partitioned alike).
     */
    public static LedgerEffect applyLedger(Connection c, LedgerEntry e, int partition, String traceId)
            throws SQLException {
        if (e.type() == LedgerType.DEDUCTED) return LedgerEffect.NONE;
        if (!claim(c, e, traceId)) return LedgerEffect.NONE;
        if (e.type() == LedgerType.PAID || e.type() == LedgerType.PAYMENT_REFUSED) return PaymentDecisions.apply(c, e);
        long opened = e.type() == LedgerType.OPENED ? e.quantity() : 0;
        adjustSale(c, e.goodsId(), opened, e.stockDelta());
        if (e.type() == LedgerType.CLOSED || e.type() == LedgerType.OPENED) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE sale SET status = ? WHERE goods_id = ?")) {
                ps.setString(1, e.type() == LedgerType.CLOSED ? "CLOSED" : "OPEN");
                ps.setLong(2, e.goodsId());
                ps.executeUpdate();
            }
        }
        if (e.type() == LedgerType.OPENED && e.commandOffset() != null) endEarlierSales(c, e, partition);
        return e.type() == LedgerType.RELEASED ? Releases.endReleasedOrder(c, e) : LedgerEffect.APPLIED;
    }

    /**
     * A new sale of a goods: paid orders of its earlier sales stop being live purchases (they keep their unit and stay
     * PAID), so their buyers may buy in this sale (invariant 2 is per sale). Earlier means the order's purchase command
     * came before the OPENED's command in the goods' partition; the stream opens a goods again only once no buyer of
     * the previous sale is held (released, or the sale's keys expired), so no unpaid order of it is left live here.
     * An order without a source offset was written by the reconciler before it gave its orders one (it now writes the
     * offset of their sale's OPENED): it repairs only a settled goods, i.e. after this writer applied the OPENED of the
     * order's sale, so such an order is always of an earlier sale than an OPENED applied now: it is stamped placed
     * before any sale (source offset -1), so that it counts as no later sale's order ({@link Orders#IN_SALE}).
     * A bucketed goods' OPENED opens one bucket, in its own commands partition: offsets compare only within one
     * partition, so it ends the earlier orders of that partition alone (each bucket's OPENED ends its own; the stream
     * opens every bucket of the previous sale again, with 0 units when the new sale has fewer: docs/decisions.md).
     */
    private static void endEarlierSales(Connection c, LedgerEntry e, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE purchase_order SET source_offset = -1 "
                + "WHERE goods_id = ? AND source_offset IS NULL AND sale_offset = -1")) {
            ps.setLong(1, e.goodsId());
            ps.executeUpdate();
        }
        boolean bucketed = e.bucket() != null;
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE purchase_order SET live_user_id = NULL WHERE goods_id = ? AND live_user_id IS NOT NULL "
                        + "AND status IN ('PAID', 'PAYING') AND source_offset < ?"
                        + (bucketed ? " AND source_partition = ?" : ""))) {
            ps.setLong(1, e.goodsId());
            ps.setLong(2, e.commandOffset());
            if (bucketed) ps.setInt(3, partition);
            ps.executeUpdate();
        }
    }

    /** Claims a change by its op_id ({@code INSERT IGNORE}): false when it was claimed before, i.e. already applied. */
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
            ps.setObject(9, utcOrNull(e.at()));
            ps.setString(10, traceId);
            return ps.executeUpdate() == 1;
        }
    }

    /** Upserts the sale row by deltas, so ledger entries may arrive in any order across topics. */
    static void adjustSale(Connection c, long goodsId, long openedDelta, long stockDelta) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO sale (goods_id, opened_stock, stock) VALUES (?, ?, ?) "
                        + "ON DUPLICATE KEY UPDATE opened_stock = opened_stock + VALUES(opened_stock), stock = stock + VALUES(stock)")) {
            ps.setLong(1, goodsId);
            ps.setLong(2, openedDelta);
            ps.setLong(3, stockDelta);
            ps.executeUpdate();
        }
    }
}
