package dev.seckill.infra.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.infra.harness.Sales;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.redis.RedisConnections;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis emptied ({@code FLUSHALL} on the scenario's own server) right before each kind of sale operation, each sent
 * through the system's own path: a payment (the provider's event on {@code <prefix>payments}; the order-writer takes it
 * and forwards its {@code pay}), a release after a payment timeout (the sweeper's cancel and its release record, made
 * now rather than 15 minutes on), an open and a close of the goods ({@code ./seckill sale open|close}'s records). The
 * stream's fold is the truth: each must be decided as if nothing was lost (PAID, RELEASED, CLOSED), the open refused
 * while the sale is live.
 */
final class WipedOps {
    private static final long OWN_BUYERS = 70_000_000L;

    private WipedOps() {}

    /** Recovery, per wipe: FLUSHALL → the sale back in Redis. Checks: the ledger and the DB as listed above. */
    static ChaosScenario.Fault wipeBeforeEachOperation() {
        return t -> {
            String run = Long.toString(System.nanoTime(), 36);
            String payRid = "wipe-pay-" + run;
            String lateRid = "wipe-late-" + run;
            var paying = t.calls.purchaseAsync(t.goods, OWN_BUYERS + 1, 1, payRid);
            var late = t.calls.purchaseAsync(t.goods, OWN_BUYERS + 2, 1, lateRid);
            if (!paying.join().success() || !late.join().success())
                throw new IllegalStateException("the scenario's own buyers were answered " + paying.join() + " and "
                        + late.join() + ", not SUCCESS");
            long[] orders = new long[2];
            String open = "open-" + UUID.randomUUID();
            String close = "close-" + UUID.randomUUID();
            RecordMetadata closed;
            boolean payAfterWipe;
            try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(t.settings)) {
                // 1. an open of the goods while its sale is live and selling (`sale open` without --force)
                long w = wipe(t);
                send(producer, t, Sales.started(t.goods, t.stock, Duration.ofMinutes(60), 1, open));
                t.recovered(w, restored(t, w));
                // 2. the close (`sale close`), units still left: later purchases are REJECTED ended, whatever Redis
                // lost
                t.pause(200, 1_000);
                w = wipe(t);
                closed = send(producer, t, new CloseSale(t.goods, close));
                t.recovered(w, restored(t, w));
                // 3. the provider's payment; once the order-writer took it (PAYING), Redis is wiped before its pay
                long payOrder = SaleRecords.awaitOrder(t, t.goods, payRid, "CREATED");
                byte[] payment = Json.write(Payment.of("chaos-pay-" + run, payOrder, Instant.now()));
                producer.send(new ProducerRecord<>(t.topics.payments(), Long.toString(payOrder), payment))
                        .get(30, TimeUnit.SECONDS);
                SaleRecords.awaitOrder(t, t.goods, payRid, "PAYING");
                w = wipe(t);
                payAfterWipe = !forwarded(t, payOrder);
                t.recovered(w, restored(t, w));
                // 4. the other buyer's order unpaid past its deadline: the sweeper's cancel, then its release
                t.pause(300, 1_500);
                long lateOrder = SaleRecords.awaitOrder(t, t.goods, lateRid, "CREATED");
                cancelAsTheSweeperDoes(t, lateOrder);
                w = wipe(t);
                send(
                        producer,
                        t,
                        new Release(
                                t.goods,
                                OWN_BUYERS + 2,
                                1,
                                lateOrder,
                                lateRid,
                                "payment_timeout",
                                "release-order-" + lateOrder));
                t.recovered(w, restored(t, w));
                orders[0] = payOrder;
                orders[1] = lateOrder;
            }
            long closeOffset = closed.offset();
            int closePartition = closed.partition();
            String[] found = {""};
            t.check(
                    () -> "Redis wiped before an open, a close, a pay (its command sent after the wipe: " + payAfterWipe
                            + ") and a release: PAID, RELEASED, the open refused (DLQ, no OPENED), CLOSED and no SUCCESS after"
                            + " it; the orders PAID and CANCELLED; stock-stream rebuilt the goods from its fold"
                            + found[0],
                    () -> {
                        List<JsonNode> ledger = SaleRecords.ledger(t, t.goods);
                        List<String> wrong = new ArrayList<>();
                        expect(wrong, ledger, "pay-order-" + orders[0], "PAID");
                        expect(wrong, ledger, "release-order-" + orders[1], "RELEASED");
                        JsonNode closing = SaleRecords.entry(ledger, close);
                        if (closing != null) found[0] = "; units left at the close: " + closing.path("stockAfter");
                        expect(wrong, ledger, close, "CLOSED");
                        if (SaleRecords.entry(ledger, open) != null) wrong.add("the open was decided OPENED");
                        if (SaleRecords.dlq(t).stream()
                                .noneMatch(d ->
                                        d.value().contains(open) && d.error().startsWith("open_sale refused")))
                            wrong.add("no refused open_sale " + open + " in the DLQ");
                        for (JsonNode o : SaleRecords.outcomes(t, t.goods))
                            if (o.path("outcome").asText().equals("SUCCESS")
                                    && o.path("partition").asInt() == closePartition
                                    && o.path("offset").asLong() > closeOffset)
                                wrong.add("SUCCESS " + o.path("requestId").asText() + " after the close");
                        String paid = status(t, payRid);
                        String cancelled = status(t, lateRid);
                        if (!"PAID".equals(paid) || !"CANCELLED".equals(cancelled))
                            wrong.add("orders " + paid + " (paid) and " + cancelled + " (timed out)");
                        var rebuilt = StreamLog.rebuilds(t.logs, t.goods);
                        found[0] += "; rebuilds logged by cause: " + rebuilt;
                        if (StreamLog.total(rebuilt) < 4) wrong.add("4 wipes, rebuilds logged " + rebuilt);
                        return wrong.isEmpty() ? null : String.join("; ", wrong);
                    });
        };
    }

    /** Every entry of the operation (each bucket's share of it, for a goods in buckets) is of {@code type}. */
    private static void expect(List<String> wrong, List<JsonNode> ledger, String opId, String type) {
        List<JsonNode> entries = SaleRecords.entries(ledger, opId);
        if (entries.isEmpty()) wrong.add(opId + ": no ledger entry, not " + type);
        for (JsonNode e : entries)
            if (!e.path("type").asText().equals(type))
                wrong.add(e.path("opId").asText() + ": " + e.path("type").asText() + ", not " + type);
    }

    /** FLUSHALL on the scenario's own Redis; returns when (System.nanoTime). */
    private static long wipe(ChaosTarget t) {
        String reply = ChaosTarget.redisCli(t.servers.redis().port(), "FLUSHALL");
        if (!reply.equals("OK")) throw new IllegalStateException("FLUSHALL answered " + reply);
        return System.nanoTime();
    }

    /** Milliseconds from {@code wipedAt} until the sale is back in Redis (rebuilt by the stream from its fold). */
    private static long restored(ChaosTarget t, long wipedAt) throws InterruptedException {
        String sale = new RedisKeys(t.settings.redisPrefix()).sale(t.goods);
        try (UnifiedJedis redis = RedisConnections.open(t.settings)) {
            if (ChaosTarget.await(() -> redis.exists(sale), 120) < 0)
                throw new IllegalStateException("the sale was not back in Redis 120 s after a wipe");
        }
        return (System.nanoTime() - wipedAt) / 1_000_000;
    }

    private static RecordMetadata send(KafkaProducer<String, byte[]> producer, ChaosTarget t, Command c)
            throws Exception {
        return producer.send(new ProducerRecord<>(t.topics.commands(), c.key(), CommandCodec.encode(c)))
                .get(30, TimeUnit.SECONDS);
    }

    /** The sweeper's cancel of an overdue order (PaymentTimeoutSweeper): conditional, its release marked as sent. */
    private static void cancelAsTheSweeperDoes(ChaosTarget t, long orderId) throws SQLException {
        try (Connection c = t.db();
                PreparedStatement cancel = c.prepareStatement("UPDATE purchase_order SET status = 'CANCELLED', "
                        + "live_user_id = NULL, cancelled_at = NOW(3), cancel_reason = 'payment_timeout', "
                        + "release_sent_at = NOW(3) WHERE order_id = ? AND status = 'CREATED'")) {
            cancel.setLong(1, orderId);
            if (cancel.executeUpdate() != 1) throw new IllegalStateException("order " + orderId + " was not CREATED");
        }
    }

    private static boolean forwarded(ChaosTarget t, long orderId) throws SQLException {
        try (Connection c = t.db();
                PreparedStatement q = c.prepareStatement(
                        "SELECT COUNT(*) FROM payment WHERE order_id = ? AND forwarded_at IS NOT NULL")) {
            q.setLong(1, orderId);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    static String status(ChaosTarget t, String rid) throws SQLException {
        try (Connection c = t.db();
                PreparedStatement q =
                        c.prepareStatement("SELECT status FROM purchase_order WHERE goods_id = ? AND request_id = ?")) {
            q.setLong(1, t.goods);
            q.setString(2, rid);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
