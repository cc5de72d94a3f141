package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.payment.Payment;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Payments are judged by their own time: the sweeper cancels an order only once the payments topic has been written
 * past its deadline, so a payment made on time but consumed late still wins.
 */
class PaymentDeadlineTest {
    static final long TIMEOUT_MS = 3000;
    final WriterStack stack = new WriterStack(3);
    final AtomicInteger exits = new AtomicInteger();

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    OrderWriterApp start(SimpleMeterRegistry metrics) {
        return new OrderWriterApp(
                        stack.settings.and(Map.of(
                                "writer.payment.timeout.ms",
                                Long.toString(TIMEOUT_MS),
                                "writer.sweep.interval.ms",
                                "100")),
                        metrics,
                        status -> exits.incrementAndGet())
                .start();
    }

    long order(String requestId, long goods, long user) throws Exception {
        stack.send(Purchases.onLedger(stack.topics, Purchases.deducted(goods, requestId, user), null));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> stack.text("SELECT order_id FROM purchase_order WHERE request_id = ?", requestId) != null);
        return stack.one("SELECT order_id FROM purchase_order WHERE request_id = ?", requestId);
    }

    long createdAtMs(long orderId) throws Exception {
        return stack.one(
                "SELECT ROUND(UNIX_TIMESTAMP(created_at) * 1000) FROM purchase_order WHERE order_id = ?", orderId);
    }

    @Test
    void aPaymentMadeOnTimeButConsumedAfterTheDeadlineWins_theOrderIsPaidAndNothingIsReleased() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (OrderWriterApp app = start(metrics)) {
            long unpaid = order("late-reader-0", 5001, 1);
            long orderId = order("late-reader-1", 5001, 2);
            long deadline = createdAtMs(orderId) + TIMEOUT_MS;
            // the writer is made to lag on payments: the test holds the lock of the payment row the writer must insert,
            // so the batch holding the payment cannot commit (nor its offsets) until the test lets go
            try (Connection hold = DriverManager.getConnection(
                    TestDb.SERVER + "/" + stack.database + "?sslMode=DISABLED", "root", "")) {
                hold.setAutoCommit(false);
                try (PreparedStatement ps = hold.prepareStatement(
                        "INSERT INTO payment (payment_id, order_id, status) VALUES ('pay-1', ?, 'HELD')")) {
                    ps.setLong(1, orderId);
                    ps.executeUpdate();
                }
                Instant paidAt = Instant.now();
                assertThat(paidAt.toEpochMilli()).as("paid on time").isLessThan(deadline - 1000);
                stack.send(
                        stack.topics.payments(),
                        Long.toString(orderId),
                        Payment.of("pay-1", orderId, paidAt),
                        paidAt.toEpochMilli());

                // well past the deadline, with sweeps after it: the unpaid order of the same goods is cancelled as soon
                // as
                // the topic is written past its deadline (its partition may be another), the paid one must not be
                double sweepsAtDeadline = await().atMost(Duration.ofSeconds(30))
                        .until(
                                () -> System.currentTimeMillis() > deadline + 1500
                                        ? metrics.get("seckill_sweeper_sweeps")
                                                .counter()
                                                .count()
                                        : -1,
                                n -> n >= 0);
                await().atMost(Duration.ofSeconds(30))
                        .until(() ->
                                metrics.get("seckill_sweeper_sweeps").counter().count() >= sweepsAtDeadline + 10);
                assertThat(stack.text("SELECT status FROM purchase_order WHERE order_id = ?", orderId))
                        .as("not cancelled while its payment is unwritten in the topic")
                        .isEqualTo("CREATED");
                hold.rollback(); // the writer catches up
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> stack.text("SELECT forwarded_at FROM payment WHERE payment_id = 'pay-1'") != null);
            assertThat(stack.text("SELECT status FROM purchase_order WHERE order_id = ?", orderId))
                    .as("taken: sent to the stream")
                    .isEqualTo("PAYING");
            // and the unpaid one is cancelled and released once the payments are written past its deadline
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> stack.text("SELECT release_sent_at FROM purchase_order WHERE order_id = ?", unpaid)
                            != null);
            assertThat(stack.text("SELECT status FROM purchase_order WHERE order_id = ?", unpaid))
                    .isEqualTo("CANCELLED");
            double sweeps = metrics.get("seckill_sweeper_sweeps").counter().count();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> metrics.get("seckill_sweeper_sweeps").counter().count() >= sweeps + 5);
            assertThat(stack.text("SELECT status FROM purchase_order WHERE order_id = ?", orderId))
                    .isEqualTo("PAYING");
            assertThat(stack.text("SELECT release_sent_at FROM purchase_order WHERE order_id = ?", orderId))
                    .isNull();
        }
        List<String> commands = stack.commands();
        assertThat(commands)
                .as("the unpaid order's release and the paid order's pay")
                .hasSize(2);
        assertThat(commands)
                .filteredOn(c -> c.contains("\"type\":\"release\""))
                .singleElement()
                .asString()
                .contains("\"requestId\":\"late-reader-0\"");
        assertThat(commands)
                .filteredOn(c -> c.contains("\"type\":\"pay\""))
                .singleElement()
                .asString()
                .contains("\"requestId\":\"late-reader-1\"")
                .contains("\"paymentId\":\"pay-1\"");
        assertThat(exits).hasValue(0);
    }

    @Test
    void aPaymentMadeAfterTheDeadlineIsRefusedEvenBeforeTheSweeperCancels() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (OrderWriterApp app = start(metrics)) {
            long orderId = order("paid-late", 5002, 1);
            Instant paidAt = Instant.ofEpochMilli(createdAtMs(orderId) + TIMEOUT_MS + 1);
            stack.send(
                    stack.topics.payments(),
                    Long.toString(orderId),
                    Payment.of("pay-late", orderId, paidAt),
                    paidAt.toEpochMilli());
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            "REFUSED".equals(stack.text("SELECT status FROM payment WHERE payment_id = 'pay-late'")));
            // refused by its own paidAt while the order was still CREATED: not because the sweeper got there first
            // (the sweeper cannot: the payment is consumed at once, long before the deadline passes on the clock)
            assertThat(stack.text("SELECT reason FROM payment WHERE payment_id = 'pay-late'"))
                    .isEqualTo("paid after the order's payment deadline");
            assertThat(stack.text("SELECT status FROM payment WHERE payment_id = 'pay-late'"))
                    .isEqualTo("REFUSED");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "CANCELLED"
                            .equals(stack.text("SELECT status FROM purchase_order WHERE order_id = ?", orderId)));
            assertThat(stack.text("SELECT cancel_reason FROM purchase_order WHERE order_id = ?", orderId))
                    .isEqualTo("payment_timeout");
        }
    }
}
