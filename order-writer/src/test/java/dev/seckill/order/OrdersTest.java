package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.order.store.Orders;
import dev.seckill.order.store.TracedOutcome;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The order rows' SQL (store/Orders) on the machine's real MariaDB/MySQL (a database of its own). */
class OrdersTest {
    final TestDb t = new TestDb();

    @AfterEach
    void drop() throws Exception {
        t.close();
    }

    static Outcome success(String rid, long goods, long user) {
        return Outcome.of(rid, goods, user, 1, OutcomeKind.SUCCESS, null, 0, Instant.now(), Instant.now(), 0, 0);
    }

    @Test
    void theFastAndTheSlowPathBothNameTheOrderInItsDeductedLedgerRow() throws Exception {
        try (Connection c = t.db.getConnection()) {
            c.setAutoCommit(false);
            // another writer's rows first, so the fast path's ids do not start at 1
            assertThat(Orders.recordSuccess(c, success("slow-1", 7001, 900), null))
                    .isTrue();
            assertThat(Orders.recordSuccesses(
                            c,
                            List.of(
                                    new TracedOutcome(success("fast-1", 7001, 1), "t1"),
                                    new TracedOutcome(success("fast-2", 7001, 2), null),
                                    new TracedOutcome(success("fast-3", 7002, 1), "t3"))))
                    .isEqualTo(3);
            assertThat(Orders.recordSuccess(c, success("slow-2", 7002, 901), null))
                    .isTrue();
            c.commit();
        }
        assertThat(t.one("SELECT COUNT(*) FROM stock_ledger WHERE type = 'DEDUCTED'"))
                .isEqualTo(5);
        assertThat(t.one("SELECT COUNT(*) FROM stock_ledger l JOIN purchase_order o ON o.request_id = l.request_id "
                        + "AND o.goods_id = l.goods_id WHERE l.type = 'DEDUCTED' AND l.order_id = o.order_id"))
                .as("every DEDUCTED row names its own order")
                .isEqualTo(5);
    }

    @Test
    void aRequestIdOnTwoGoodsIsTwoPurchases_onTheSlowAndTheFastPath() throws Exception {
        try (Connection c = t.db.getConnection()) {
            c.setAutoCommit(false);
            assertThat(Orders.recordSuccess(c, success("same", 7101, 1), null)).isTrue();
            assertThat(Orders.recordSuccess(c, success("same", 7102, 2), null))
                    .as("another goods' purchase")
                    .isTrue();
            assertThat(Orders.recordSuccess(c, success("same", 7102, 2), null))
                    .as("its redelivery")
                    .isFalse();
            assertThat(Orders.recordSuccesses(
                            c,
                            List.of(
                                    new TracedOutcome(success("fast", 7101, 3), null),
                                    new TracedOutcome(success("fast", 7102, 4), null))))
                    .isEqualTo(2);
            c.commit();
        }
        assertThat(t.one("SELECT COUNT(*) FROM purchase_order")).isEqualTo(4);
        assertThat(t.one("SELECT COUNT(*) FROM stock_ledger l JOIN purchase_order o ON o.order_id = l.order_id "
                        + "AND o.goods_id = l.goods_id AND o.request_id = l.request_id WHERE l.type = 'DEDUCTED'"))
                .isEqualTo(4);
        assertThat(t.one("SELECT stock FROM sale WHERE goods_id = 7102")).isEqualTo(-2);
    }
}
