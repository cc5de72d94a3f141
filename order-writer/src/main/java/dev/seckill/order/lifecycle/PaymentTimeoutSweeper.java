package dev.seckill.order.lifecycle;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Release;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels orders left unpaid past the deadline, judged by the payments' own time, then sends their {@code release} commands (keyed by goodsId,
 * idempotent by {@code release-order-<orderId>}) so Redis gives the stock back in the partition's serial order.
 * The cancel is a conditional update (only a CREATED order), so several sweepers never cancel twice and never
 * cancel a paid order; the release goes out through an outbox column, so a crash between the two only delays it.
 * <p>An order is overdue only once the payments topic has been written past its deadline ({@link PaymentsProgress}):
 * a payment made on time but still in the topic (the writer lagging, paused, restarting) is applied first and wins,
 * since {@link Payments} judges it by its own {@code paidAt}, not by when it is consumed. A writer that does not
 * consume payments at all therefore cancels nothing — which is right: nobody can tell whether those orders were paid.
 */
public final class PaymentTimeoutSweeper {
    private static final Logger LOG = LoggerFactory.getLogger(PaymentTimeoutSweeper.class);
    private static final int BATCH = 500;

    private final DataSource db;
    private final Producer<String, byte[]> producer;
    private final Topics topics;
    private final Duration deadline;
    private final Duration grace;
    private final PaymentsProgress payments;
    private final MeterRegistry metrics;

    /**
     * @param deadline how long an order may stay unpaid (from its {@code created_at})
     * @param grace    how long after a deadline the payments topic must have been written before the order is cancelled:
     *                 room for a payment made on time that its provider publishes late (0: none)
     */
    public PaymentTimeoutSweeper(
            DataSource db,
            Producer<String, byte[]> producer,
            Topics topics,
            Duration deadline,
            Duration grace,
            PaymentsProgress payments,
            MeterRegistry metrics) {
        this.db = db;
        this.producer = producer;
        this.topics = topics;
        this.deadline = deadline;
        this.grace = grace;
        this.payments = payments;
        this.metrics = metrics;
        metrics.counter("seckill_orders_cancelled", "reason", "payment_timeout"); // at 0 until the first cancel
    }

    /** One pass: cancel what is overdue, then send every release not yet sent. Returns the number of releases sent. */
    public int sweep() throws Exception {
        metrics.counter("seckill_sweeper_sweeps").increment();
        // the broker is asked how far payments are written only when some order is overdue by the DB's clock
        int cancelled = anyOverdue() ? cancelOverdue(payments.writtenUntil()) : 0;
        if (cancelled > 0) LOG.info("cancelled {} orders unpaid after {}", cancelled, deadline);
        return sendReleases();
    }

    private boolean anyOverdue() throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT 1 FROM purchase_order WHERE status = 'CREATED' "
                        + "AND created_at < NOW(3) - INTERVAL ? MICROSECOND LIMIT 1")) {
            ps.setLong(1, deadline.plus(grace).toNanos() / 1000);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Cancels the CREATED orders whose deadline (+ grace) lies before {@code paymentsWrittenMs}: any payment made before
     * their deadline and published before that moment has been applied, so these were not paid in time.
     * {@code paymentsWrittenMs} is a moment by the database's clock ({@link PaymentsProgress}), as created_at is: one
     * clock, whatever the writer host's says. created_at and FROM_UNIXTIME are both in the session's time zone, so the
     * comparison holds in any zone.
     */
    private int cancelOverdue(long paymentsWrittenMs) throws SQLException {
        if (paymentsWrittenMs == Long.MIN_VALUE)
            return 0; // some payments partition not known written up to anything yet
        List<Long> overdue = new ArrayList<>();
        try (Connection c = db.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT order_id FROM purchase_order WHERE status = 'CREATED' "
                                + "AND created_at < FROM_UNIXTIME(?) - INTERVAL ? MICROSECOND ORDER BY order_id LIMIT "
                                + BATCH)) {
            ps.setBigDecimal(1, BigDecimal.valueOf(paymentsWrittenMs, 3));
            ps.setLong(2, deadline.plus(grace).toNanos() / 1000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) overdue.add(rs.getLong(1));
            }
            int cancelled = 0;
            try (PreparedStatement cancel = c.prepareStatement(
                    "UPDATE purchase_order SET status = 'CANCELLED', "
                            + "live_user_id = NULL, cancelled_at = NOW(3), cancel_reason = 'payment_timeout' WHERE order_id = ? AND status = 'CREATED'")) {
                for (long id : overdue) {
                    cancel.setLong(1, id);
                    cancelled += cancel.executeUpdate();
                }
            }
            metrics.counter("seckill_orders_cancelled", "reason", "payment_timeout")
                    .increment(cancelled);
            return cancelled;
        }
    }

    private int sendReleases() throws SQLException {
        int sent = 0;
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT order_id, goods_id, user_id, quantity, request_id FROM purchase_order "
                                + "WHERE status = 'CANCELLED' AND release_sent_at IS NULL ORDER BY order_id LIMIT "
                                + BATCH);
                PreparedStatement done =
                        c.prepareStatement("UPDATE purchase_order SET release_sent_at = NOW(3) WHERE order_id = ?")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long orderId = rs.getLong(1);
                    Release release = new Release(
                            rs.getLong(2),
                            rs.getLong(3),
                            rs.getInt(4),
                            orderId,
                            rs.getString(5),
                            "payment_timeout",
                            "release-order-" + orderId);
                    try {
                        producer.send(new ProducerRecord<>(
                                        topics.commands(), release.key(), CommandCodec.encode(release)))
                                .get(30, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        LOG.warn("release of order {} not sent yet (retried next sweep): {}", orderId, e.getMessage());
                        break;
                    }
                    done.setLong(1, orderId);
                    done.executeUpdate();
                    sent++;
                }
            }
        }
        metrics.counter("seckill_sweeper_releases").increment(sent);
        return sent;
    }
}
