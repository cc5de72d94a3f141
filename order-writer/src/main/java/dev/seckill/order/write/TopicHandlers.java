package dev.seckill.order.write;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.order.lifecycle.PaymentResult;
import dev.seckill.order.lifecycle.Payments;
import dev.seckill.order.store.LedgerEffect;
import dev.seckill.order.store.Orders;
import dev.seckill.order.store.StockLedger;
import dev.seckill.order.store.TracedOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer's three input topics and what each does to the database: SUCCESS outcomes become orders, ledger entries
 * move DB stock (and end released orders), payments pay orders. Immutable; used by the writer thread, and by the
 * consumer thread to decode a batch's SUCCESS outcomes for the fast path.
 */
public final class TopicHandlers {
    private static final Logger LOG = LoggerFactory.getLogger(TopicHandlers.class);

    private final String successTopic;
    private final List<String> topics;
    private final Map<String, RecordHandler> byTopic;
    private final Duration paymentTimeout;
    private final MeterRegistry metrics;

    public TopicHandlers(Topics topics, Duration paymentTimeout, MeterRegistry metrics) {
        this.successTopic = topics.success();
        this.topics = List.of(topics.success(), topics.ledger(), topics.payments());
        this.paymentTimeout = paymentTimeout;
        this.metrics = metrics;
        metrics.counter(
                "seckill_orders_paid"); // at 0 from the start, for rates and dashboards before the first payment
        this.byTopic = Map.of(
                topics.success(), this::success, topics.ledger(), this::ledger, topics.payments(), this::payment);
    }

    /** The topics this writer consumes. */
    public List<String> topics() {
        return topics;
    }

    public boolean isSuccess(ConsumerRecord<String, byte[]> r) {
        return r.topic().equals(successTopic);
    }

    public RecordHandler handlerOf(String topic) {
        RecordHandler handler = byTopic.get(topic);
        if (handler == null) throw new IllegalStateException("order-writer has no handler for topic " + topic);
        return handler;
    }

    /** The batch's SUCCESS outcomes when every one of them is well-formed; null sends the batch down the per-record path. */
    public List<TracedOutcome> fastPathSuccesses(List<ConsumerRecord<String, byte[]>> batch) {
        List<TracedOutcome> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : batch) {
            if (!isSuccess(r)) continue;
            try {
                Outcome o = Json.read(r.value(), Outcome.class);
                if (!isWritable(o)) return null;
                out.add(new TracedOutcome(o, TraceHeaders.get(r.headers())));
            } catch (RuntimeException e) {
                return null;
            }
        }
        return out;
    }

    private boolean success(Connection c, ConsumerRecord<String, byte[]> r, String traceId)
            throws SQLException, PoisonRecord {
        Outcome o = parse(r, Outcome.class);
        if (!isWritable(o)) throw new PoisonRecord("not a SUCCESS outcome with requestId, goodsId and quantity");
        return Orders.recordSuccess(c, o, traceId);
    }

    private boolean payment(Connection c, ConsumerRecord<String, byte[]> r, String traceId)
            throws SQLException, PoisonRecord {
        Payment p = parse(r, Payment.class);
        if (p.paymentId() == null || p.orderId() <= 0 || p.paidAt() == null) {
            throw new PoisonRecord("payment without paymentId, orderId or paidAt");
        }
        PaymentResult result = Payments.apply(c, p, traceId, paymentTimeout);
        metrics.counter("seckill_payments", "result", result.name()).increment();
        if (result == PaymentResult.REFUSED) {
            LOG.info(
                    "payment {} of order {} (paid at {}) refused: the provider must refund it",
                    p.paymentId(),
                    p.orderId(),
                    p.paidAt());
        }
        return false;
    }

    private boolean ledger(Connection c, ConsumerRecord<String, byte[]> r, String traceId)
            throws SQLException, PoisonRecord {
        LedgerEntry e = parse(r, LedgerEntry.class);
        if (e.type() == null || e.opId() == null || e.goodsId() <= 0)
            throw new PoisonRecord("ledger entry without type, opId or goodsId");
        LedgerEffect effect = StockLedger.applyLedger(c, e, traceId);
        if (e.type() == LedgerType.RELEASED && effect != LedgerEffect.NONE) {
            metrics.counter("seckill_writer_releases", "effect", effect.name()).increment();
        }
        if (effect == LedgerEffect.ORDER_PAID)
            metrics.counter("seckill_orders_paid").increment();
        if (e.type() == LedgerType.PAYMENT_REFUSED && effect != LedgerEffect.NONE) {
            LOG.info(
                    "payment of order {} refused by the stock (its units were released first): the provider must refund it",
                    e.orderId());
        }
        if (effect == LedgerEffect.PAID_ORDER_RELEASED) {
            metrics.counter("seckill_writer_paid_order_released").increment();
            LOG.error(
                    "RELEASED ledger entry {} gave back units of a PAID order (goods {}, user {}): recorded in order_anomaly",
                    e.opId(),
                    e.goodsId(),
                    e.userId());
        }
        return false; // no order row written
    }

    private static boolean isWritable(Outcome o) {
        return o.outcome() == OutcomeKind.SUCCESS && o.requestId() != null && o.goodsId() > 0 && o.quantity() > 0;
    }

    private static <T> T parse(ConsumerRecord<String, byte[]> r, Class<T> type) throws PoisonRecord {
        try {
            return Json.read(r.value(), type);
        } catch (RuntimeException e) {
            throw new PoisonRecord("malformed " + type.getSimpleName() + ": " + e.getMessage());
        }
    }
}
