package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.payment.Payment;
import io.micrometer.core.instrument.search.MeterNotFoundException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A RELEASED ledger entry that did not come from the sweeper (an operator's {@code cancelled}/{@code repair}/
 * {@code order_failed} release) ends the order it released: CANCELLED, no longer payable, the buyer free to buy again.
 * A release of a PAID order is recorded, not applied to the order. Ledger entries are what stock-stream emits for such
 * a release command.
 */
class ReleasedOrderTest {
    final WriterStack stack = new WriterStack(3);
    final AtomicInteger exits = new AtomicInteger();
    final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    OrderWriterApp start() {
        // a long payment timeout: nothing here is the sweeper's doing
        return new OrderWriterApp(
                        stack.settings.and(Map.of("writer.payment.timeout.ms", "600000")),
                        metrics,
                        s -> exits.incrementAndGet())
                .start();
    }

    /** A purchase as the writer reads it: its DEDUCTED entry on the goods' ledger partition. */
    void purchase(String requestId, long goods, long user) throws Exception {
        stack.send(Purchases.onLedger(stack.topics, Purchases.deducted(goods, requestId, user), null));
    }

    long orderOf(String requestId) throws Exception {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> stack.text("SELECT order_id FROM purchase_order WHERE request_id = ?", requestId) != null);
        return stack.one("SELECT order_id FROM purchase_order WHERE request_id = ?", requestId);
    }

    /** The RELEASED entry stock-stream emits for {@code release{opId, goodsId, userId, orderId, requestId?}}. */
    void released(String opId, long goods, long user, Long orderId, String requestId) throws Exception {
        released(opId, goods, user, orderId, requestId, Purchases.COMMAND_OFFSET + 1);
    }

    /** The same, its release command at {@code commandOffset} of the goods' partition (null: an entry without one). */
    void released(String opId, long goods, long user, Long orderId, String requestId, Long commandOffset)
            throws Exception {
        LedgerEntry entry =
                LedgerEntry.of(opId, goods, LedgerType.RELEASED, 1, user, requestId, orderId, 1, Instant.now());
        stack.send(
                stack.topics.ledger(),
                Long.toString(goods),
                commandOffset == null ? entry : entry.withCommandOffset(commandOffset));
    }

    /** A purchase whose command is at {@code commandOffset} of the goods' partition. */
    void purchaseAt(String requestId, long goods, long user, long commandOffset) throws Exception {
        stack.send(Purchases.onLedger(
                stack.topics,
                Purchases.deducted(goods, requestId, user, 0, commandOffset, Purchases.OPEN_OFFSET),
                null));
    }

    String status(long orderId) throws Exception {
        return stack.text("SELECT status FROM purchase_order WHERE order_id = ?", orderId);
    }

    /** The entry stock-stream emits for the {@code pay} command the writer forwarded: PAID or PAYMENT_REFUSED. */
    void decidedByTheStream(LedgerType type, long goods, long user, long orderId, String requestId) throws Exception {
        stack.send(
                stack.topics.ledger(),
                Long.toString(goods),
                LedgerEntry.of("pay-order-" + orderId, goods, type, 0, user, requestId, orderId, 0, Instant.now()));
    }

    String payment(String paymentId, String column) throws Exception {
        return stack.text("SELECT " + column + " FROM payment WHERE payment_id = ?", paymentId);
    }

    @Test
    void aPaymentOnTimeMakesTheOrderPaying_andGoesToTheStreamAsAPayCommand_whosePaidEntryMakesItPaid()
            throws Exception {
        try (OrderWriterApp app = start()) {
            purchase("buy-pay", 6004, 10);
            long orderId = orderOf("buy-pay");
            stack.send(stack.topics.payments(), Long.toString(orderId), Payment.of("psp-1", orderId, Instant.now()));
            await().atMost(Duration.ofSeconds(30)).until(() -> payment("psp-1", "forwarded_at") != null);
            assertThat(status(orderId))
                    .as("not PAID before the stream marked the purchase paid")
                    .isEqualTo("PAYING");
            assertThat(payment("psp-1", "status")).isEqualTo("PENDING");
            assertThat(stack.commands())
                    .anySatisfy(c -> assertThat(c)
                            .contains("\"type\":\"pay\"")
                            .contains("\"goodsId\":6004")
                            .contains("\"userId\":10")
                            .contains("\"requestId\":\"buy-pay\"")
                            .contains("\"orderId\":" + orderId)
                            .contains("\"paymentId\":\"psp-1\"")
                            .contains("\"opId\":\"pay-order-" + orderId + "\""));
            stack.send(stack.topics.payments(), Long.toString(orderId), Payment.of("psp-2", orderId, Instant.now()));
            await().atMost(Duration.ofSeconds(30)).until(() -> "REFUSED".equals(payment("psp-2", "status")));
            assertThat(payment("psp-2", "reason"))
                    .as("a second payment of an order being paid")
                    .contains("being paid by psp-1");

            decidedByTheStream(LedgerType.PAID, 6004, 10, orderId, "buy-pay");
            await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(status(orderId)));
            assertThat(payment("psp-1", "status")).isEqualTo("ACCEPTED");
            assertThat(metrics.get("seckill_orders_paid").counter().count()).isEqualTo(1);
        }
        assertThat(exits).hasValue(0);
    }

    @Test
    void aReleaseThatReachedTheStreamBeforeThePayment_cancelsTheOrderBeingPaid_andRefusesThePayment() throws Exception {
        try (OrderWriterApp app = start()) {
            purchase("buy-race", 6005, 11);
            long orderId = orderOf("buy-race");
            stack.send(stack.topics.payments(), Long.toString(orderId), Payment.of("psp-race", orderId, Instant.now()));
            await().atMost(Duration.ofSeconds(30)).until(() -> "PAYING".equals(status(orderId)));
            released("ops-cancel-race", 6005, 11, orderId, "buy-race"); // the stream released it before the pay arrived
            decidedByTheStream(LedgerType.PAYMENT_REFUSED, 6005, 11, orderId, "buy-race"); // so it refused the pay
            await().atMost(Duration.ofSeconds(30)).until(() -> "REFUSED".equals(payment("psp-race", "status")));
            assertThat(status(orderId))
                    .as("invariant 7: a released order is never paid")
                    .isEqualTo("CANCELLED");
            assertThat(payment("psp-race", "reason"))
                    .contains("released by ops-cancel-race")
                    .contains("refund");
            assertThat(stack.text("SELECT live_user_id FROM purchase_order WHERE order_id = ?", orderId))
                    .isNull();
        }
    }

    @Test
    void aPaymentRefusedByTheStreamWithoutARelease_theSalesKeysHadExpired_cancelsTheOrder() throws Exception {
        try (OrderWriterApp app = start()) {
            purchase("buy-expired", 6006, 12);
            long orderId = orderOf("buy-expired");
            stack.send(stack.topics.payments(), Long.toString(orderId), Payment.of("psp-exp", orderId, Instant.now()));
            await().atMost(Duration.ofSeconds(30)).until(() -> "PAYING".equals(status(orderId)));
            decidedByTheStream(LedgerType.PAYMENT_REFUSED, 6006, 12, orderId, "buy-expired");
            await().atMost(Duration.ofSeconds(30)).until(() -> "REFUSED".equals(payment("psp-exp", "status")));
            assertThat(status(orderId)).isEqualTo("CANCELLED");
            assertThat(stack.text("SELECT release_sent_at FROM purchase_order WHERE order_id = ?", orderId))
                    .as("nothing for the sweeper to release: the stream holds no unit of it")
                    .isNotNull();
        }
    }

    @Test
    void anOperatorsReleaseCancelsTheOrder_aLaterPaymentIsRefused_andTheBuyersNextPurchaseBecomesAnOrder()
            throws Exception {
        try (OrderWriterApp app = start()) {
            purchase("buy-1", 6001, 7);
            long orderId = orderOf("buy-1");
            released(
                    "ops-cancel-1",
                    6001,
                    7,
                    orderId,
                    null); // an operator's release naming the order, not the requestId
            await().atMost(Duration.ofSeconds(30)).until(() -> "CANCELLED".equals(status(orderId)));
            assertThat(stack.text("SELECT live_user_id FROM purchase_order WHERE order_id = ?", orderId))
                    .isNull();
            assertThat(stack.text("SELECT cancel_reason FROM purchase_order WHERE order_id = ?", orderId))
                    .contains("ops-cancel-1");
            assertThat(stack.text("SELECT release_sent_at FROM purchase_order WHERE order_id = ?", orderId))
                    .as("the release happened: the sweeper has none to send")
                    .isNotNull();

            stack.send(
                    stack.topics.payments(),
                    Long.toString(orderId),
                    Payment.of("pay-after-release", orderId, Instant.now()));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> stack.text("SELECT status FROM payment WHERE payment_id = 'pay-after-release'") != null
                            && !"PENDING"
                                    .equals(stack.text(
                                            "SELECT status FROM payment WHERE payment_id = 'pay-after-release'")));
            assertThat(stack.text("SELECT status FROM payment WHERE payment_id = 'pay-after-release'"))
                    .isEqualTo("REFUSED");
            assertThat(stack.text("SELECT reason FROM payment WHERE payment_id = 'pay-after-release'"))
                    .contains("cancelled")
                    .contains("ops-cancel-1");
            assertThat(status(orderId))
                    .as("invariant 7: a released order is never paid")
                    .isEqualTo("CANCELLED");

            purchase("buy-2", 6001, 7); // the buyer, free in Redis, buys again
            long again = orderOf("buy-2");
            assertThat(status(again)).isEqualTo("CREATED");
            assertThat(stack.one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = 6001 AND live_user_id = 7"))
                    .isEqualTo(1);
            assertThat(stack.one("SELECT stock FROM sale WHERE goods_id = 6001"))
                    .as("-1 -1 +1")
                    .isEqualTo(-1);
            assertThat(metrics.get("seckill_dlq_records")
                            .tags("source", "order-writer")
                            .counter()
                            .count())
                    .isZero();
        }
        assertThat(exits).hasValue(0);
    }

    @Test
    void aReleaseNamingTheRequestIdEndsThatOrder_evenWhenItArrivesBeforeTheOrderIsWritten() throws Exception {
        try (OrderWriterApp app = start()) {
            // a release read before its purchase (in the ledger's order it comes after: here its DEDUCTED was, say,
            // dead-lettered and is replayed)
            released("repair-early", 6002, 8, null, "buy-early");
            await().atMost(Duration.ofSeconds(30)).until(() -> stack.one("SELECT COUNT(*) FROM early_release") == 1);
            purchase("buy-early", 6002, 8);
            long orderId = orderOf("buy-early");
            assertThat(status(orderId)).isEqualTo("CANCELLED");
            assertThat(stack.one("SELECT COUNT(*) FROM early_release")).isZero();
            purchase("buy-early-2", 6002, 8);
            assertThat(status(orderOf("buy-early-2"))).isEqualTo("CREATED");
            assertThat(metrics.get("seckill_dlq_records")
                            .tags("source", "order-writer")
                            .counter()
                            .count())
                    .isZero();
        }
    }

    @Test
    void aWaitingReleaseNeverEndsTheBuyersLaterPurchase_onlyOneDecidedBeforeIt() throws Exception {
        try (OrderWriterApp app = start()) {
            // releases whose orders never came (their DEDUCTED dead-lettered): one naming no requestId at offset 10,
            // one kept before releases carried their offset
            released("cancel-unwritten", 6007, 13, null, null, 10L);
            released("cancel-legacy", 6007, 13, null, null, null);
            await().atMost(Duration.ofSeconds(30)).until(() -> stack.one("SELECT COUNT(*) FROM early_release") == 2);

            purchaseAt("rebuy", 6007, 13, 20); // the buyer's re-buy, decided after both releases
            assertThat(status(orderOf("rebuy")))
                    .as("a release decided before this purchase cannot have given back its unit")
                    .isEqualTo("CREATED");
            assertThat(stack.one("SELECT COUNT(*) FROM early_release")).isEqualTo(2);
        }
    }

    @Test
    void aWaitingReleaseEndsTheReplayedPurchaseItGaveBack_decidedBeforeIt() throws Exception {
        try (OrderWriterApp app = start()) {
            released("cancel-before-write", 6008, 14, null, null, 10L);
            await().atMost(Duration.ofSeconds(30)).until(() -> stack.one("SELECT COUNT(*) FROM early_release") == 1);
            purchaseAt("replayed", 6008, 14, 5); // its DEDUCTED, replayed from the dead letters
            long orderId = orderOf("replayed");
            assertThat(status(orderId)).isEqualTo("CANCELLED");
            assertThat(stack.text("SELECT cancel_reason FROM purchase_order WHERE order_id = ?", orderId))
                    .contains("cancel-before-write");
            assertThat(stack.one("SELECT COUNT(*) FROM early_release")).isZero();
        }
    }

    @Test
    void aReleaseOfAPaidOrderIsRecorded_theOrderStaysPaid() throws Exception {
        try (OrderWriterApp app = start()) {
            purchase("buy-paid", 6003, 9);
            long orderId = orderOf("buy-paid");
            stack.send(stack.topics.payments(), Long.toString(orderId), Payment.of("pay-ok", orderId, Instant.now()));
            await().atMost(Duration.ofSeconds(30)).until(() -> "PAYING".equals(status(orderId)));
            decidedByTheStream(LedgerType.PAID, 6003, 9, orderId, "buy-paid");
            await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(status(orderId)));
            // the stream refuses to release a purchase it marked paid; a RELEASED entry for one anyway (marks lost with
            // Redis, or an order paid before payments went through the stream) is still made visible
            released("ops-cancel-paid", 6003, 9, orderId, null);
            await().atMost(Duration.ofSeconds(30))
                    .ignoreException(MeterNotFoundException.class) // born at its first write
                    .until(() -> metrics.get("seckill_writer_paid_order_released")
                                    .counter()
                                    .count()
                            == 1);
            assertThat(status(orderId))
                    .as("a paid order is not silently cancelled")
                    .isEqualTo("PAID");
            assertThat(stack.text("SELECT kind FROM order_anomaly WHERE order_id = ?", orderId))
                    .isEqualTo("paid_order_released");
            assertThat(stack.text("SELECT op_id FROM order_anomaly WHERE order_id = ?", orderId))
                    .isEqualTo("ops-cancel-paid");
            assertThat(stack.one("SELECT stock FROM sale WHERE goods_id = 6003"))
                    .as("the stock moved as it did in Redis")
                    .isZero();
        }
    }
}
