package dev.seckill.order;

import static dev.seckill.order.Purchases.deducted;
import static dev.seckill.order.Purchases.deduction;
import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.order.store.LedgerEffect;
import dev.seckill.order.store.Orders;
import dev.seckill.order.store.StockLedger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Orders written from DEDUCTED ledger entries (store/Orders) on the machine's real MariaDB/MySQL, without a broker: a
 * requestId the stream forgot and a buyer reused in a later sale is a new purchase, not a redelivery; a purchase whose
 * acceptedAt DATETIME cannot hold is still an order.
 */
class OrdersReuseTest {
    static final long GOODS = 7401;
    static final long USER = 7;
    static final Instant AT = Instant.parse("2026-12-02T10:11:12.345Z");
    static TestDb t;
    Connection c;

    @BeforeAll
    static void database() {
        t = new TestDb();
    }

    @AfterAll
    static void drop() throws Exception {
        t.close();
    }

    /** Each test in a transaction of its own, rolled back after it: the class migrates one database. */
    @BeforeEach
    void connect() throws SQLException {
        c = t.db.getConnection();
        c.setAutoCommit(false);
    }

    @AfterEach
    void rollBack() throws Exception {
        c.rollback();
        c.close();
    }

    String text(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    long one(String sql, Object... args) throws SQLException {
        String v = text(sql, args);
        if (v == null) throw new SQLException("no row: " + sql);
        return Long.parseLong(v);
    }

    /** The goods' order of {@code requestId} in the sale opened at {@code saleOffset}. */
    long orderIn(String requestId, long saleOffset) throws SQLException {
        return one(
                "SELECT order_id FROM purchase_order WHERE goods_id = ? AND request_id = ? AND sale_offset = ?",
                GOODS,
                requestId,
                saleOffset);
    }

    /** Everything the writer keeps of the goods, as one text: its orders, its ledger rows and its sale row. */
    String everything() throws SQLException {
        return text(
                        "SELECT GROUP_CONCAT(CONCAT_WS('/', order_id, request_id, status, IFNULL(live_user_id, '-'), "
                                + "sale_offset, IFNULL(source_offset, '-'), IFNULL(trace_id, '-')) ORDER BY order_id) "
                                + "FROM purchase_order WHERE goods_id = ?",
                        GOODS)
                + " | "
                + text(
                        "SELECT GROUP_CONCAT(CONCAT_WS('/', op_id, type, quantity, IFNULL(order_id, '-')) ORDER BY id) "
                                + "FROM stock_ledger WHERE goods_id = ?",
                        GOODS)
                + " | "
                + text("SELECT CONCAT_WS('/', opened_stock, stock, status) FROM sale WHERE goods_id = ?", GOODS);
    }

    static LedgerEntry opened(String opId, long units, long commandOffset) {
        return LedgerEntry.of(opId, GOODS, LedgerType.OPENED, units, null, null, null, units, AT)
                .withCommandOffset(commandOffset);
    }

    @Test
    void aRequestIdReusedInALaterSale_afterTheStreamForgotIt_isANewOrder_andARedeliveryOfEitherIsANoOp()
            throws Exception {
        assertThat(StockLedger.applyLedger(c, opened("open-1", 5, 10), 0, null)).isEqualTo(LedgerEffect.APPLIED);
        LedgerEntry first = deducted(GOODS, "r", USER, 4, 11, 10);
        assertThat(Orders.record(c, deduction(first, "trace-1"))).isTrue();
        long firstOrder = orderIn("r", 10);
        // the buyer did not pay: the stream released the unit, the order ends
        assertThat(StockLedger.applyLedger(
                        c,
                        LedgerEntry.of("release-1", GOODS, LedgerType.RELEASED, 1, USER, "r", firstOrder, 5, AT),
                        0,
                        null))
                .isEqualTo(LedgerEffect.ORDER_ENDED);
        // a later sale of the goods, once the stream forgot the first one's keys: the buyer reuses the requestId
        assertThat(StockLedger.applyLedger(c, opened("open-2", 3, 50), 0, null)).isEqualTo(LedgerEffect.APPLIED);
        LedgerEntry second = deducted(GOODS, "r", USER, 7, 51, 50);

        assertThat(Orders.record(c, deduction(second, "trace-2")))
                .as("a purchase of the later sale, not a redelivery")
                .isTrue();

        long secondOrder = orderIn("r", 50);
        assertThat(text(
                        "SELECT GROUP_CONCAT(CONCAT(sale_offset, ':', status) ORDER BY sale_offset) FROM purchase_order "
                                + "WHERE goods_id = ? AND request_id = 'r'",
                        GOODS))
                .isEqualTo("10:CANCELLED,50:CREATED");
        assertThat(one("SELECT live_user_id FROM purchase_order WHERE order_id = ?", secondOrder))
                .as("the later sale's order is the buyer's live purchase")
                .isEqualTo(USER);
        assertThat(one("SELECT source_offset FROM purchase_order WHERE order_id = ?", secondOrder))
                .isEqualTo(51);
        assertThat(text("SELECT trace_id FROM purchase_order WHERE order_id = ?", secondOrder))
                .isEqualTo("trace-2");
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", GOODS))
                .as("5 opened, -1 deducted, +1 released, 3 opened, -1 deducted")
                .isEqualTo(7);
        assertThat(one("SELECT opened_stock FROM sale WHERE goods_id = ?", GOODS))
                .isEqualTo(8);
        assertThat(text(
                        "SELECT GROUP_CONCAT(CONCAT(op_id, '=', order_id) ORDER BY id) FROM stock_ledger "
                                + "WHERE goods_id = ? AND type = 'DEDUCTED'",
                        GOODS))
                .as("each purchase claimed once, each DEDUCTED row naming its own sale's order")
                .isEqualTo(LedgerEntry.deductOpId(GOODS, "r") + "=" + firstOrder + ","
                        + LedgerEntry.deductOpId(GOODS, "r") + "@50=" + secondOrder);

        String before = everything();
        assertThat(Orders.record(c, deduction(first, "trace-1")))
                .as("the first sale's purchase redelivered")
                .isFalse();
        assertThat(Orders.record(c, deduction(second, "trace-2")))
                .as("the later sale's purchase redelivered")
                .isFalse();
        assertThat(everything()).as("nothing changed by the redeliveries").isEqualTo(before);
    }

    @Test
    void anOrderWrittenBeforeOrdersNamedTheirSale_andNotPlaced_isNoLaterSalesOrder() throws Exception {
        assertThat(StockLedger.applyLedger(c, opened("open-1", 5, 10), 0, null)).isEqualTo(LedgerEffect.APPLIED);
        // as the reconciler wrote a lost order before it placed its orders: no sale, no source offset; claimed
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO purchase_order (request_id, goods_id, user_id, "
                + "quantity, status, live_user_id) VALUES ('old', ?, ?, 1, 'PAID', ?)")) {
            ps.setLong(1, GOODS);
            ps.setLong(2, USER);
            ps.setLong(3, USER);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO stock_ledger (op_id, goods_id, type, quantity, "
                + "stock_after) VALUES (?, ?, 'DEDUCTED', 1, 4)")) {
            ps.setString(1, LedgerEntry.deductOpId(GOODS, "old"));
            ps.setLong(2, GOODS);
            ps.executeUpdate();
        }
        LedgerEntry first = deducted(GOODS, "old", USER, 4, 11, 10);
        assertThat(Orders.record(c, deduction(first, null)))
                .as("its sale's purchase redelivered: the unplaced order is this sale's")
                .isFalse();

        assertThat(StockLedger.applyLedger(c, opened("open-2", 3, 50), 0, null)).isEqualTo(LedgerEffect.APPLIED);
        assertThat(Orders.record(c, deduction(deducted(GOODS, "old", USER, 6, 51, 50), null)))
                .as("the requestId reused in the later sale, once the stream forgot it: a new purchase")
                .isTrue();
        assertThat(text(
                        "SELECT GROUP_CONCAT(CONCAT(sale_offset, ':', status, ':', IFNULL(live_user_id, '-')) "
                                + "ORDER BY order_id) FROM purchase_order WHERE goods_id = ? AND request_id = 'old'",
                        GOODS))
                .as("the old order kept, paid, no longer live; the later sale's order live")
                .isEqualTo("-1:PAID:-,50:CREATED:" + USER);
    }

    @Test
    void anAcceptedAtDatetimeCannotHold_stillWritesTheOrder_withoutItsAcceptedAt_onTheSlowAndTheFastPath()
            throws Exception {
        Instant farFuture = Instant.parse("+20000-01-01T00:00:00Z");
        Instant farPast = Instant.EPOCH.minusSeconds(40_000_000_000L);

        assertThat(Orders.record(c, deduction(deducted(GOODS, "slow-future", 1, 0, 1, 0, farFuture), null)))
                .isTrue();
        assertThat(Orders.record(c, deduction(deducted(GOODS, "slow-past", 2, 0, 2, 0, farPast), null)))
                .isTrue();
        assertThat(Orders.record(c, deduction(deducted(GOODS, "slow-held", 6, 0, 6, 0, AT), null)))
                .isTrue();
        assertThat(Orders.recordAll(
                        c,
                        List.of(
                                deduction(deducted(GOODS, "fast-future", 3, 0, 3, 0, farFuture), null),
                                deduction(deducted(GOODS, "fast-past", 4, 0, 4, 0, farPast), null),
                                deduction(deducted(GOODS, "fast-held", 5, 0, 5, 0, AT), null))))
                .isEqualTo(3);

        assertThat(text(
                        "SELECT GROUP_CONCAT(request_id ORDER BY request_id) FROM purchase_order "
                                + "WHERE goods_id = ? AND accepted_at IS NULL",
                        GOODS))
                .as("written, without the acceptedAt DATETIME cannot hold")
                .isEqualTo("fast-future,fast-past,slow-future,slow-past");
        // to the second: Connector/J sends no fractional seconds to a server that announces itself as 5.5.5 (MariaDB)
        assertThat(text(
                        "SELECT GROUP_CONCAT(CONCAT(request_id, '=', DATE_FORMAT(accepted_at, '%Y-%m-%dT%H:%i:%sZ')) "
                                + "ORDER BY request_id) FROM purchase_order WHERE goods_id = ? AND accepted_at IS NOT NULL",
                        GOODS))
                .as("an acceptedAt DATETIME holds is kept, in UTC")
                .isEqualTo("fast-held=2026-12-02T10:11:12Z,slow-held=2026-12-02T10:11:12Z");
        assertThat(one(
                        "SELECT COUNT(*) FROM stock_ledger WHERE goods_id = ? AND type = 'DEDUCTED' AND order_id IS NOT NULL",
                        GOODS))
                .isEqualTo(6);
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", GOODS)).isEqualTo(-6);
    }
}
