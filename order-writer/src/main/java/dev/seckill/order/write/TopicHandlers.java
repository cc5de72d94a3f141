package dev.seckill.order.write;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.order.lifecycle.PaymentResult;
import dev.seckill.order.lifecycle.Payments;
import dev.seckill.order.store.Deduction;
import dev.seckill.order.store.LedgerEffect;
import dev.seckill.order.store.Orders;
import dev.seckill.order.store.StockLedger;
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
 * The writer's two input topics and what each does to the database. The goods' ledger: DEDUCTED entries become orders,
 * the others move DB stock, end released orders and decide payments — all in the stream's serial order, because a goods'
 * entries are one partition (docs/invariants.md, invariant 3). Payments (from the provider): taken for orders, then
 * decided by the stream. Immutable; used by the writer thread, and by the consumer thread to cut a batch into
 * {@link Piece}s.
 */
public final class TopicHandlers {
    private static final Logger LOG = LoggerFactory.getLogger(TopicHandlers.class);

    private final String ledgerTopic;
    private final List<String> topics;
    private final Map<String, RecordHandler> byTopic;
    private final Duration paymentTimeout;
    private final MeterRegistry metrics;

    public TopicHandlers(Topics topics, Duration paymentTimeout, MeterRegistry metrics) {
        this.ledgerTopic = topics.ledger();
        this.topics = List.of(topics.ledger(), topics.payments());
        this.paymentTimeout = paymentTimeout;
        this.metrics = metrics;
        metrics.counter(
                "seckill_orders_paid"); // at 0 from the start, for rates and dashboards before the first payment
        this.byTopic = Map.of(topics.ledger(), this::ledger, topics.payments(), this::payment);
    }

    /** The topics this writer consumes. */
    public List<String> topics() {
        return topics;
    }

    public RecordHandler handlerOf(String topic) {
        RecordHandler handler = byTopic.get(topic);
        if (handler == null) throw new IllegalStateException("order-writer has no handler for topic " + topic);
        return handler;
    }

    /**
     * The batch cut into pieces, in its order: each run of consecutive well-formed DEDUCTED entries decoded for the
     * multi-row fast path, every other record on its own (a malformed one is dead-lettered by its handler).
     */
    public List<Piece> pieces(List<ConsumerRecord<String, byte[]>> batch) {
        List<Piece> pieces = new ArrayList<>();
        List<Deduction> run = new ArrayList<>();
        List<ConsumerRecord<String, byte[]>> runRecords = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : batch) {
            Deduction d = deduction(r);
            if (d != null) {
                run.add(d);
                runRecords.add(r);
                continue;
            }
            if (!run.isEmpty()) {
                pieces.add(new Piece.Run(run, runRecords));
                run.clear();
                runRecords.clear();
            }
            pieces.add(new Piece.One(r));
        }
        if (!run.isEmpty()) pieces.add(new Piece.Run(run, runRecords));
        return pieces;
    }

    /** The record's purchase, when it is a well-formed DEDUCTED ledger entry; null otherwise. */
    private Deduction deduction(ConsumerRecord<String, byte[]> r) {
        if (!r.topic().equals(ledgerTopic) || r.value() == null) return null;
        try {
            LedgerEntry e = Json.read(r.value(), LedgerEntry.class);
            if (e.type() != LedgerType.DEDUCTED || !Deduction.writable(e)) return null;
            return new Deduction(e, e.commandPartition(r.partition()), TraceHeaders.get(r.headers()));
        } catch (RuntimeException e) {
            return null;
        }
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
        if (e.type() == LedgerType.DEDUCTED) {
            if (!Deduction.writable(e))
                throw new PoisonRecord("DEDUCTED entry without userId, requestId or a quantity of 1 or more");
            return Orders.record(c, new Deduction(e, e.commandPartition(r.partition()), traceId));
        }
        LedgerEffect effect = StockLedger.applyLedger(c, e, e.commandPartition(r.partition()), traceId);
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

    private static <T> T parse(ConsumerRecord<String, byte[]> r, Class<T> type) throws PoisonRecord {
        try {
            return Json.read(r.value(), type);
        } catch (RuntimeException e) {
            throw new PoisonRecord("malformed " + type.getSimpleName() + ": " + e.getMessage());
        }
    }
}
