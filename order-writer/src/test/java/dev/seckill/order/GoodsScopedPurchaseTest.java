package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A purchase is the pair (goodsId, requestId): the same requestId on two goods is two purchases, each SUCCESS
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

    void success(String requestId, long goods, long user) throws Exception {
        stack.send(
                stack.topics.success(),
                Long.toString(goods),
                Outcome.of(
                        requestId, goods, user, 1, OutcomeKind.SUCCESS, null, 0, Instant.now(), Instant.now(), 0, 0));
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
            success("shared-1", A, 7);
            success("shared-1", B, 8);
            awaitOrders("shared-1", 2);
            assertThat(stack.text("SELECT GROUP_CONCAT(CONCAT(goods_id, '/', user_id) ORDER BY goods_id) "
                            + "FROM purchase_order WHERE request_id = 'shared-1'"))
                    .isEqualTo(A + "/7," + B + "/8");
            assertThat(stack.text("SELECT GROUP_CONCAT(op_id ORDER BY op_id) FROM stock_ledger "
                            + "WHERE type = 'DEDUCTED' AND request_id = 'shared-1'"))
                    .isEqualTo("deduct:" + A + ":shared-1,deduct:" + B + ":shared-1");

            // both redelivered, then one more purchase per goods behind them in their partitions
            success("shared-1", A, 7);
            success("shared-1", B, 8);
            success("after-a", A, 9);
            success("after-b", B, 10);
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
            success("shared-2", A, 7);
            success("shared-2", B, 8);
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
}
