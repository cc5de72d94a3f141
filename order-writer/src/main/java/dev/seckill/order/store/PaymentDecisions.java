package dev.seckill.order.store;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The stream's answer to a {@code pay} command, applied to the order and its payment, on a connection whose
 * transaction the caller owns: PAID makes a PAYING order PAID and its payment ACCEPTED; PAYMENT_REFUSED (the buyer no
 * longer held the purchase: released first, or the sale's keys expired) cancels the order and refuses the payment, for
 * the provider to refund. An order a RELEASED entry ended before is left as it is ({@link Releases} refused the payment).
 */
final class PaymentDecisions {
    private PaymentDecisions() {}

    static LedgerEffect apply(Connection c, LedgerEntry e) throws SQLException {
        if (e.orderId() == null) return LedgerEffect.APPLIED;
        if (e.type() == LedgerType.PAID) {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE purchase_order SET status = 'PAID' WHERE order_id = ? AND status = 'PAYING'")) {
                ps.setLong(1, e.orderId());
                if (ps.executeUpdate() == 0) return LedgerEffect.APPLIED;
            }
            endPayment(c, e.orderId(), "ACCEPTED", null);
            return LedgerEffect.ORDER_PAID;
        }
        String reason =
                "the purchase's units were released (or its sale ended) before the payment reached the stock: refund it";
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE purchase_order SET status = 'CANCELLED', live_user_id = NULL, "
                        + "cancelled_at = NOW(3), cancel_reason = 'payment refused by the stock', release_sent_at = COALESCE(release_sent_at, NOW(3)) "
                        + "WHERE order_id = ? AND status = 'PAYING'")) {
            ps.setLong(1, e.orderId());
            ps.executeUpdate();
        }
        endPayment(c, e.orderId(), "REFUSED", reason);
        return LedgerEffect.ORDER_ENDED;
    }

    /** The order's pending payment (the one it is PAYING with) gets its final status. */
    static void endPayment(Connection c, long orderId, String status, String reason) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE payment SET status = ?, reason = ? WHERE order_id = ? AND status = 'PENDING'")) {
            ps.setString(1, status);
            ps.setString(2, reason);
            ps.setLong(3, orderId);
            ps.executeUpdate();
        }
    }
}
