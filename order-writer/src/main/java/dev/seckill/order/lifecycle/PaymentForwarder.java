package dev.seckill.order.lifecycle;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Pay;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the {@code pay} command of every payment {@link Payments} took (payment PENDING, order PAYING) and not sent
 * yet, keyed by goodsId so the stream decides it in the goods' serial order with any release. {@code payment.forwarded_at}
 * is the outbox mark: a crash between the send and the mark sends it again, which the stream answers as a retry of
 * its opId ({@code pay-order-<orderId>}), emitting nothing new.
 */
public final class PaymentForwarder {
    private static final Logger LOG = LoggerFactory.getLogger(PaymentForwarder.class);
    private static final int BATCH = 500;

    private final DataSource db;
    private final Producer<String, byte[]> producer;
    private final Topics topics;
    private final MeterRegistry metrics;

    public PaymentForwarder(DataSource db, Producer<String, byte[]> producer, Topics topics, MeterRegistry metrics) {
        this.db = db;
        this.producer = producer;
        this.topics = topics;
        this.metrics = metrics;
    }

    /** Sends what is waiting; returns how many were sent. A failed send stops the pass (the next one retries it). */
    public int forward() throws SQLException {
        int sent = 0;
        try (Connection c = db.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT p.payment_id, o.order_id, o.goods_id, o.user_id, o.request_id "
                                + "FROM payment p JOIN purchase_order o ON o.order_id = p.order_id AND o.payment_id = p.payment_id "
                                + "WHERE p.status = 'PENDING' AND p.forwarded_at IS NULL AND o.status = 'PAYING' ORDER BY o.order_id LIMIT "
                                + BATCH);
                PreparedStatement done =
                        c.prepareStatement("UPDATE payment SET forwarded_at = NOW(3) WHERE payment_id = ?")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String paymentId = rs.getString(1);
                    long orderId = rs.getLong(2);
                    Pay pay = new Pay(
                            rs.getLong(3), rs.getLong(4), rs.getString(5), orderId, paymentId, Pay.opIdOf(orderId));
                    try {
                        producer.send(new ProducerRecord<>(topics.commands(), pay.key(), CommandCodec.encode(pay)))
                                .get(30, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        LOG.warn(
                                "pay command of order {} not sent yet (retried next pass): {}",
                                orderId,
                                e.getMessage());
                        break;
                    }
                    done.setString(1, paymentId);
                    done.executeUpdate();
                    sent++;
                }
            }
        }
        metrics.counter("seckill_payments_forwarded").increment(sent);
        return sent;
    }
}
