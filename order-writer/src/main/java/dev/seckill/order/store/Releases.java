package dev.seckill.order.store;

import dev.seckill.contracts.ledger.LedgerEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a RELEASED ledger entry does to the order it released: ends a CREATED order, waits in {@code early_release} for
 * an order not written yet, or — for a PAID order — is recorded in {@code order_anomaly}. On a connection whose
 * transaction the caller owns.
 */
final class Releases {
    private Releases() {}

    /** An order a RELEASED entry found, locked. */
    private record ReleasedOrder(long orderId, String status) {}

    /**
     * The order a RELEASED entry gave the units of: the goods' order of its requestId when the release named one (the stream then
     * released only that purchase), else the buyer's live order of the goods (the stream released what the buyer held).
     * Locked, so a payment applied by another writer of the group waits for this decision.
     */
    static LedgerEffect endReleasedOrder(Connection c, LedgerEntry e) throws SQLException {
        if (e.userId() == null)
            return LedgerEffect.APPLIED; // the stream always names the buyer; nothing to find without one
        ReleasedOrder order = findForUpdate(c, e);
        if (order == null) {
            // in the ledger's order a purchase's DEDUCTED comes before its RELEASED; kept for a DEDUCTED that could not
            // be written (dead-lettered, or applied before the writer read orders from the ledger)
            recordEarlyRelease(c, e);
            return LedgerEffect.ORDER_NOT_YET_WRITTEN;
        }
        if ("PAID".equals(order.status())) {
            // the stream refuses to release a purchase it marked paid; a PAID order released anyway (paid before
            // payments
            // went through the stream, or marks lost with Redis): not undone here — the unit is back in Redis and maybe
            // resold — but made visible
            recordPaidOrderReleased(c, e, order.orderId());
            return LedgerEffect.PAID_ORDER_RELEASED;
        }
        cancelReleased(c, order.orderId(), e.opId());
        return LedgerEffect.ORDER_ENDED;
    }

    private static ReleasedOrder findForUpdate(Connection c, LedgerEntry e) throws SQLException {
        // a purchase is (goods, requestId): the same requestId may name another goods' order
        String find = e.requestId() != null
                ? "SELECT order_id, status FROM purchase_order WHERE goods_id = ? AND request_id = ? "
                        + "ORDER BY order_id DESC LIMIT 1 FOR UPDATE" // a reused requestId: its latest sale's order
                : "SELECT order_id, status FROM purchase_order WHERE goods_id = ? AND live_user_id = ? FOR UPDATE";
        try (PreparedStatement ps = c.prepareStatement(find)) {
            ps.setLong(1, e.goodsId());
            if (e.requestId() != null) ps.setString(2, e.requestId());
            else ps.setLong(2, e.userId());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new ReleasedOrder(rs.getLong(1), rs.getString(2)) : null;
            }
        }
    }

    private static void recordEarlyRelease(Connection c, LedgerEntry e) throws SQLException {
        try (PreparedStatement early = c.prepareStatement(
                "INSERT IGNORE INTO early_release (op_id, goods_id, user_id, request_id, command_offset) "
                        + "VALUES (?, ?, ?, ?, ?)")) {
            early.setString(1, e.opId());
            early.setLong(2, e.goodsId());
            early.setLong(3, e.userId());
            early.setString(4, e.requestId());
            early.setObject(5, e.commandOffset());
            early.executeUpdate();
        }
    }

    private static void recordPaidOrderReleased(Connection c, LedgerEntry e, long orderId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT IGNORE INTO order_anomaly (op_id, kind, goods_id, user_id, order_id, "
                        + "request_id, detail) VALUES (?, 'paid_order_released', ?, ?, ?, ?, ?)")) {
            ps.setString(1, e.opId());
            ps.setLong(2, e.goodsId());
            ps.setLong(3, e.userId());
            ps.setLong(4, orderId);
            ps.setString(5, e.requestId());
            ps.setString(
                    6,
                    "RELEASED entry " + e.opId() + " gave back " + e.quantity() + " unit(s) of a PAID order: "
                            + "refund the buyer or take the unit back from stock");
            ps.executeUpdate();
        }
    }

    /**
     * CREATED or PAYING → CANCELLED because its units were released by {@code opId}; its release is done, so the outbox
     * is marked. A payment it was PAYING with is refused: the release reached the stream before the payment did, so the
     * stream refuses the payment too (invariant 7: a released order is never paid).
     */
    private static void cancelReleased(Connection c, long orderId, String opId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE purchase_order SET status = 'CANCELLED', live_user_id = NULL, "
                        + "cancelled_at = NOW(3), cancel_reason = ?, release_sent_at = COALESCE(release_sent_at, NOW(3)) "
                        + "WHERE order_id = ? AND status IN ('CREATED', 'PAYING')")) {
            String reason = "released by " + opId;
            ps.setString(1, reason.substring(0, Math.min(120, reason.length())));
            ps.setLong(2, orderId);
            if (ps.executeUpdate() == 0) return;
        }
        PaymentDecisions.endPayment(
                c,
                orderId,
                "REFUSED",
                "order cancelled (released by " + opId + ") before the payment reached the stock: refund it");
    }

    /**
     * Whether a release waits for an order of the batch — one of its goods has a waiting release decided after the
     * run's first purchase (or one without an offset, when a purchase of the run has none): the fast path then steps
     * aside.
     */
    static boolean anyWaitingRelease(Connection c, Collection<Deduction> run) throws SQLException {
        Set<Long> goods = new TreeSet<>();
        long first = Long.MAX_VALUE;
        boolean unplaced = false;
        for (Deduction d : run) {
            goods.add(d.entry().goodsId());
            Long offset = d.entry().commandOffset();
            if (offset == null) unplaced = true;
            else first = Math.min(first, offset);
        }
        String in = String.join(",", Collections.nCopies(goods.size(), "?"));
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM early_release WHERE goods_id IN (" + in + ") "
                + "AND (command_offset > ?" + (unplaced ? " OR command_offset IS NULL" : "") + ") LIMIT 1")) {
            int i = 1;
            for (long g : goods) ps.setLong(i++, g);
            ps.setLong(i, first);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * A new order whose release was applied before it was written (its DEDUCTED was dead-lettered, or written before
     * orders came from the ledger): it is written CANCELLED at once. A waiting release ends only a purchase decided
     * before it (a smaller command offset), never the buyer's later re-buy; one kept without an offset ends only a
     * purchase without one. The earliest such release of the buyer is the one.
     */
    static void endIfReleasedEarly(Connection c, LedgerEntry o, long orderId) throws SQLException {
        String opId;
        Long decidedAt = o.commandOffset();
        try (PreparedStatement ps = c.prepareStatement("SELECT op_id FROM early_release WHERE goods_id = ? "
                + "AND user_id = ? AND (request_id IS NULL OR request_id = ?) AND "
                + (decidedAt == null ? "command_offset IS NULL" : "command_offset > ?")
                + " ORDER BY command_offset, recorded_at, op_id LIMIT 1 FOR UPDATE")) {
            ps.setLong(1, o.goodsId());
            ps.setLong(2, o.userId());
            ps.setString(3, o.requestId());
            if (decidedAt != null) ps.setLong(4, decidedAt);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return;
                opId = rs.getString(1);
            }
        }
        cancelReleased(c, orderId, opId);
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM early_release WHERE goods_id = ? AND op_id = ?")) {
            ps.setLong(1, o.goodsId());
            ps.setString(2, opId);
            ps.executeUpdate();
        }
    }
}
