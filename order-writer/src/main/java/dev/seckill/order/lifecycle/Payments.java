package dev.seckill.order.lifecycle;

import dev.seckill.contracts.payment.Payment;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Judges a payment with a conditional update (CREATED → PAYING, and paid before the order's deadline), on a connection
 * whose transaction the caller owns. A payment taken here is PENDING until the stream decides it in the goods' serial
 * order ({@link PaymentForwarder} sends the {@code pay} command; {@link PaymentDecisions} applies the stream's answer):
 * so a release that reached the stream first wins and the payment is refused, and once the stream marked the purchase
 * paid no release can give its units back (invariant 7, docs/invariants.md). The payment is judged by its own {@code paidAt}, never by when it is consumed:
 * paid before {@code created_at + timeout} wins however late the writer reads it (the sweeper waits for the payments
 * topic to be written past a deadline before it cancels), paid at or after it is refused even if the sweeper has not
 * got to the order yet — so the outcome depends on the payment's time alone, not on lag or sweep timing.
 * The sweeper cancels with the mirror-image update (CREATED → CANCELLED), so a payment racing the sweeper ends in
 * exactly one of PAYING or CANCELLED.
 */
public final class Payments {
    private Payments() {}

    public static PaymentResult apply(Connection c, Payment p, String traceId, Duration timeout) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT IGNORE INTO payment (payment_id, order_id, status, trace_id, paid_at) VALUES (?, ?, 'PENDING', ?, ?)")) {
            ps.setString(1, p.paymentId());
            ps.setLong(2, p.orderId());
            ps.setString(3, traceId);
            ps.setObject(4, LocalDateTime.ofInstant(p.paidAt(), ZoneOffset.UTC));
            if (ps.executeUpdate() == 0) return PaymentResult.DUPLICATE;
        }
        int paid;
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE purchase_order SET status = 'PAYING', paid_at = ?, payment_id = ? "
                        + "WHERE order_id = ? AND status = 'CREATED' AND created_at > FROM_UNIXTIME(?) - INTERVAL ? MICROSECOND")) {
            ps.setObject(1, LocalDateTime.ofInstant(p.paidAt(), ZoneOffset.UTC));
            ps.setString(2, p.paymentId());
            ps.setLong(3, p.orderId());
            ps.setBigDecimal(4, BigDecimal.valueOf(p.paidAt().toEpochMilli(), 3));
            ps.setLong(5, timeout.toNanos() / 1000);
            paid = ps.executeUpdate();
        }
        if (paid == 1) return PaymentResult.PENDING; // stays PENDING: forwarded to the stream, decided there
        mark(c, p.paymentId(), "REFUSED", refusal(c, p.orderId()));
        return PaymentResult.REFUSED;
    }

    private static String refusal(Connection c, long orderId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT status, payment_id, cancel_reason FROM purchase_order WHERE order_id = ?")) {
            ps.setLong(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return "unknown order";
                return switch (rs.getString(1)) {
                    case "CANCELLED" ->
                        "order cancelled" + (rs.getString(3) == null ? "" : " (" + rs.getString(3) + ")")
                                + ": its stock was released";
                    case "CREATED" -> "paid after the order's payment deadline";
                    case "PAID" -> "order already paid by " + rs.getString(2);
                    case "PAYING" -> "order already being paid by " + rs.getString(2);
                    default -> "order is " + rs.getString(1);
                };
            }
        }
    }

    static void mark(Connection c, String paymentId, String status, String reason) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE payment SET status = ?, reason = ? WHERE payment_id = ?")) {
            ps.setString(1, status);
            ps.setString(2, reason);
            ps.setString(3, paymentId);
            ps.executeUpdate();
        }
    }
}
