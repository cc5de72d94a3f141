package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A purchase is the pair (goodsId, requestId): the same requestId on two goods is two purchases, each DEDUCTED entry
 * its own order and its own DEDUCTED row, each redelivery a no-op. Before, the second goods' order was dropped on the
 * unique request_id: a confirmed sale with no order, whose unit was never released.
 */
class GoodsScopedPurchaseTest {
    static final long A = 8101;
    static final long B = 8102;
    final WriterStack stack = new WriterStack(3);
    final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    final AtomicInteger exits = new AtomicInteger();

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    OrderWriterApp start() {
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

    long count(String sql, Object... args) throws Exception {
        return stack.one(sql, args);
    }

    void awaitOrders(String requestId, int n) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> count("SELECT COUNT(*) FROM purchase_order WHERE request_id = ?", requestId) >= n);
    }

    @Test
    void oneRequestIdOnTwoGoods_isTwoOrdersAndTwoDeductedRows_andARedeliveryOfEitherIsANoOp() throws Exception {
        try (OrderWriterApp app = start()) {
            purchase("shared-1", A, 7);
            purchase("shared-1", B, 8);
            awaitOrders("shared-1", 2);
            assertThat(stack.text("SELECT GROUP_CONCAT(CONCAT(goods_id, '/', user_id) ORDER BY goods_id) "
                            + "FROM purchase_order WHERE request_id = 'shared-1'"))
                    .isEqualTo(A + "/7," + B + "/8");
            assertThat(stack.text("SELECT GROUP_CONCAT(op_id ORDER BY op_id) FROM stock_ledger "
                            + "WHERE type = 'DEDUCTED' AND request_id = 'shared-1'"))
                    .isEqualTo("deduct:" + A + ":shared-1,deduct:" + B + ":shared-1");

            // both redelivered, then one more purchase per goods behind them in their partitions
            purchase("shared-1", A, 7);
            purchase("shared-1", B, 8);
            purchase("after-a", A, 9);
            purchase("after-b", B, 10);
            awaitOrders("after-a", 1);
            awaitOrders("after-b", 1);
        }
        assertThat(count("SELECT COUNT(*) FROM purchase_order WHERE request_id = 'shared-1'"))
                .as("no order added by the redeliveries")
                .isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM stock_ledger WHERE type = 'DEDUCTED'"))
                .isEqualTo(4);
        assertThat(count("SELECT COUNT(*) FROM stock_ledger l JOIN purchase_order o ON o.order_id = l.order_id "
                        + "AND o.goods_id = l.goods_id AND o.request_id = l.request_id WHERE l.type = 'DEDUCTED'"))
                .as("each DEDUCTED row names its own goods' order")
                .isEqualTo(4);
        assertThat(count("SELECT stock FROM sale WHERE goods_id = ?", A))
                .as("each goods deducted once per purchase")
                .isEqualTo(-2);
        assertThat(count("SELECT stock FROM sale WHERE goods_id = ?", B)).isEqualTo(-2);
        assertThat(metrics.get("seckill_dlq_records")
                        .tags("source", "order-writer")
                        .counter()
                        .count())
                .isZero();
        assertThat(exits).hasValue(0);
    }

    @Test
    void aReleaseNamingTheRequestId_endsTheOrderOfItsOwnGoodsOnly() throws Exception {
        try (OrderWriterApp app = start()) {
            purchase("shared-2", A, 7);
            purchase("shared-2", B, 8);
            awaitOrders("shared-2", 2);
            stack.send(
                    stack.topics.ledger(),
                    Long.toString(B),
                    LedgerEntry.of("ops-release-b", B, LedgerType.RELEASED, 1, 8L, "shared-2", null, 1, Instant.now()));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "CANCELLED"
                            .equals(stack.text(
                                    "SELECT status FROM purchase_order WHERE goods_id = ? AND request_id = 'shared-2'",
                                    B)));
        }
        assertThat(stack.text("SELECT status FROM purchase_order WHERE goods_id = ? AND request_id = 'shared-2'", A))
                .as("the other goods' purchase of the same requestId is not released")
                .isEqualTo("CREATED");
    }

    @Test
    void aRequestIdReusedInALaterSale_isTheLaterSalesOrder_andARedeliveryOfEitherSalesPurchaseIsANoOp()
            throws Exception {
        LedgerEntry first = Purchases.deducted(A, "reused", 7, 4, 11, 10);
        LedgerEntry second = Purchases.deducted(A, "reused", 7, 7, 51, 50);
        try (OrderWriterApp app = start()) {
            stack.send(
                    stack.topics.ledger(),
                    Long.toString(A),
                    LedgerEntry.of("open-1", A, LedgerType.OPENED, 5, null, null, null, 5, Instant.now())
                            .withCommandOffset(10));
            stack.send(Purchases.onLedger(stack.topics, first, null));
            stack.send(
                    stack.topics.ledger(),
                    Long.toString(A),
                    LedgerEntry.of("release-1", A, LedgerType.RELEASED, 1, 7L, "reused", null, 5, Instant.now()));
            // a later sale, once the stream forgot the first one's keys: the buyer's requestId is new to it
            stack.send(
                    stack.topics.ledger(),
                    Long.toString(A),
                    LedgerEntry.of("open-2", A, LedgerType.OPENED, 3, null, null, null, 8, Instant.now())
                            .withCommandOffset(50));
            stack.send(Purchases.onLedger(stack.topics, second, null));
            stack.send(Purchases.onLedger(stack.topics, first, null)); // both redelivered
            stack.send(Purchases.onLedger(stack.topics, second, null));
            stack.send(Purchases.onLedger(stack.topics, Purchases.deducted(A, "after-reuse", 9, 6, 52, 50), null));
            awaitOrders("after-reuse", 1);
        }
        assertThat(stack.text(
                        "SELECT GROUP_CONCAT(CONCAT(sale_offset, ':', status) ORDER BY sale_offset) "
                                + "FROM purchase_order WHERE goods_id = ? AND request_id = 'reused'",
                        A))
                .as("one order per sale, the first released, the later one the buyer's live purchase")
                .isEqualTo("10:CANCELLED,50:CREATED");
        assertThat(count("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND live_user_id = 7", A))
                .isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM stock_ledger WHERE type = 'DEDUCTED' AND goods_id = ?", A))
                .as("the two sales' purchases of the requestId and the one after them, once each")
                .isEqualTo(3);
        assertThat(count("SELECT stock FROM sale WHERE goods_id = ?", A))
                .as("5 opened, -1, +1 released, 3 opened, -1, -1")
                .isEqualTo(6);
        assertThat(metrics.get("seckill_dlq_records")
                        .tags("source", "order-writer")
                        .counter()
                        .count())
                .isZero();
        assertThat(exits).hasValue(0);
    }
}
