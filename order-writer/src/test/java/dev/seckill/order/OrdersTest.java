package dev.seckill.order;

import static dev.seckill.order.Purchases.deducted;
import static dev.seckill.order.Purchases.deduction;
import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.order.store.Orders;
import java.sql.Connection;
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

    @Test
    void theFastAndTheSlowPathBothNameTheOrderInItsDeductedLedgerRow() throws Exception {
        try (Connection c = t.db.getConnection()) {
            c.setAutoCommit(false);
            // another writer's rows first, so the fast path's ids do not start at 1
            assertThat(Orders.record(c, deduction(7001, "slow-1", 900))).isTrue();
            assertThat(Orders.recordAll(
                            c,
                            List.of(
                                    deduction(deducted(7001, "fast-1", 1), "t1"),
                                    deduction(deducted(7001, "fast-2", 2), null),
                                    deduction(deducted(7002, "fast-3", 1), "t3"))))
                    .isEqualTo(3);
            assertThat(Orders.record(c, deduction(7002, "slow-2", 901))).isTrue();
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
            assertThat(Orders.record(c, deduction(7101, "same", 1))).isTrue();
            assertThat(Orders.record(c, deduction(7102, "same", 2)))
                    .as("another goods' purchase")
                    .isTrue();
            assertThat(Orders.record(c, deduction(7102, "same", 2)))
                    .as("its redelivery")
                    .isFalse();
            assertThat(Orders.recordAll(
                            c,
                            List.of(
                                    deduction(deducted(7101, "fast", 3), null),
                                    deduction(deducted(7102, "fast", 4), null))))
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
