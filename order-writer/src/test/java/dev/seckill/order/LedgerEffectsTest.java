package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.ledger.BucketOf;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.order.store.Deduction;
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
 * What each ledger entry does to the sale, the order and its payment (store/StockLedger, Releases, PaymentDecisions) on
 * the machine's real MariaDB/MySQL, without a broker: the cases mutation testing found unchecked (docs/quality.md) —
 * a release of a created, a paid or a not yet written order, a pay and a refused pay, an open that ends earlier sales.
 */
class LedgerEffectsTest {
    static final long GOODS = 7301;
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

    /** The purchase of one unit whose command is at {@code offset}, in the sale opened at offset 0. */
    static Deduction purchase(String rid, long user, long offset) {
        return purchase(rid, user, offset, Purchases.OPEN_OFFSET);
    }

    /** The same, in the sale opened at {@code openOffset}. */
    static Deduction purchase(String rid, long user, long offset, long openOffset) {
        return Purchases.deduction(Purchases.deducted(GOODS, rid, user, 0, offset, openOffset), null);
    }

    static LedgerEntry entry(String opId, LedgerType type, long quantity, Long user, String rid, Long orderId) {
        return LedgerEntry.of(opId, GOODS, type, quantity, user, rid, orderId, 0, AT);
    }

    /** The entry as the writer applies it from its ledger partition {@code partition}. */
    LedgerEffect apply(LedgerEntry e, int partition) throws SQLException {
        return StockLedger.applyLedger(c, e, partition, "trace");
    }

    LedgerEffect apply(LedgerEntry e) throws SQLException {
        return StockLedger.applyLedger(c, e, 0, "trace");
    }

    long one(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    String text(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    void update(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            ps.executeUpdate();
        }
    }

    long order(String rid) throws SQLException {
        return one("SELECT order_id FROM purchase_order WHERE goods_id = ? AND request_id = ?", GOODS, rid);
    }

    String status(long orderId) throws SQLException {
        return text("SELECT status FROM purchase_order WHERE order_id = ?", orderId);
    }

    /** The order being paid with payment {@code paymentId} (PENDING), as the payment route leaves it. */
    void paying(long orderId, String paymentId) throws SQLException {
        update("UPDATE purchase_order SET status = 'PAYING', payment_id = ? WHERE order_id = ?", paymentId, orderId);
        update("INSERT INTO payment (payment_id, order_id, status) VALUES (?, ?, 'PENDING')", paymentId, orderId);
    }

    String payment(String paymentId) throws SQLException {
        return text("SELECT status FROM payment WHERE payment_id = ?", paymentId);
    }

    @Test
    void givenAnOpenAndAClose_thenTheSaleRowCountsTheUnitsAndItsStatus_andEachEntryAppliesOnce() throws Exception {
        assertThat(apply(entry("open", LedgerType.OPENED, 10, null, null, null)))
                .isEqualTo(LedgerEffect.APPLIED);
        assertThat(apply(entry("open", LedgerType.OPENED, 10, null, null, null)))
                .isEqualTo(LedgerEffect.NONE);
        assertThat(one("SELECT opened_stock FROM sale WHERE goods_id = ?", GOODS))
                .isEqualTo(10);
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", GOODS)).isEqualTo(10);
        assertThat(text("SELECT status FROM sale WHERE goods_id = ?", GOODS)).isEqualTo("OPEN");

        assertThat(apply(entry("close", LedgerType.CLOSED, 0, null, null, null)))
                .isEqualTo(LedgerEffect.APPLIED);
        assertThat(text("SELECT status FROM sale WHERE goods_id = ?", GOODS)).isEqualTo("CLOSED");
        assertThat(one("SELECT opened_stock FROM sale WHERE goods_id = ?", GOODS))
                .isEqualTo(10);

        assertThat(apply(entry("restore", LedgerType.RESTORED, 0, null, null, null)))
                .isEqualTo(LedgerEffect.APPLIED);
        assertThat(apply(entry("rel", LedgerType.RELEASED, 1, null, null, null)))
                .isEqualTo(LedgerEffect.APPLIED);
        assertThat(text("SELECT status FROM sale WHERE goods_id = ?", GOODS))
                .as("a restore or a release does not reopen a closed sale")
                .isEqualTo("CLOSED");
        assertThat(text("SELECT DATE_FORMAT(at, '%Y-%m-%dT%H:%i:%sZ') FROM stock_ledger WHERE op_id = 'close'"))
                .as("the entry's own time, in UTC")
                .isEqualTo("2026-12-02T10:11:12Z");

        assertThat(apply(entry("deduct:x", LedgerType.DEDUCTED, 1, 1L, "x", null)))
                .as("a DEDUCTED entry is an order, written by Orders.record: applyLedger leaves it alone")
                .isEqualTo(LedgerEffect.NONE);
        assertThat(one("SELECT COUNT(*) FROM stock_ledger WHERE op_id = 'deduct:x'"))
                .isZero();
    }

    @Test
    void givenACreatedOrder_whenItsUnitsAreReleased_thenItIsCancelledTheBuyerFreedAndTheUnitBack() throws Exception {
        apply(entry("open", LedgerType.OPENED, 5, null, null, null));
        Orders.record(c, purchase("r1", 1, 1));
        long orderId = order("r1");

        assertThat(apply(entry("rel", LedgerType.RELEASED, 1, 1L, "r1", orderId)))
                .isEqualTo(LedgerEffect.ORDER_ENDED);

        assertThat(status(orderId)).isEqualTo("CANCELLED");
        assertThat(text("SELECT cancel_reason FROM purchase_order WHERE order_id = ?", orderId))
                .isEqualTo("released by rel");
        assertThat(one("SELECT COUNT(*) FROM purchase_order WHERE live_user_id IS NOT NULL"))
                .isZero();
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", GOODS)).isEqualTo(5);
    }

    @Test
    void givenAPayingOrder_whenAReleaseWithoutRequestIdEndsIt_thenItsPaymentIsRefused() throws Exception {
        Orders.record(c, purchase("r1", 1, 1));
        long orderId = order("r1");
        paying(orderId, "pay-1");

        assertThat(apply(entry("rel", LedgerType.RELEASED, 1, 1L, null, null))).isEqualTo(LedgerEffect.ORDER_ENDED);

        assertThat(status(orderId)).isEqualTo("CANCELLED");
        assertThat(payment("pay-1")).isEqualTo("REFUSED");
    }

    @Test
    void givenAReleaseNamingNoBuyer_thenOnlyTheStockMoves() throws Exception {
        Orders.record(c, purchase("r1", 1, 1));

        assertThat(apply(entry("rel", LedgerType.RELEASED, 1, null, null, null)))
                .isEqualTo(LedgerEffect.APPLIED);

        assertThat(status(order("r1"))).isEqualTo("CREATED");
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", GOODS)).isZero();
    }

    @Test
    void givenAReleaseBeforeItsOrder_thenItWaits_theFastPathStepsAside_andTheOrderIsWrittenCancelled()
            throws Exception {
        // in the ledger's order a purchase's DEDUCTED comes before its RELEASED: this is a DEDUCTED that could not be
        // written in its turn (dead-lettered, then replayed) or was applied before orders were read from the ledger
        assertThat(apply(entry("rel", LedgerType.RELEASED, 1, 1L, "r1", null).withCommandOffset(3)))
                .isEqualTo(LedgerEffect.ORDER_NOT_YET_WRITTEN);
        assertThat(Orders.recordAll(c, List.of(purchase("r1", 1, 1))))
                .as("a release waits for an order of this goods decided before it")
                .isEqualTo(-1);

        assertThat(Orders.record(c, purchase("r1", 1, 1))).isTrue();

        assertThat(status(order("r1"))).isEqualTo("CANCELLED");
        assertThat(one("SELECT COUNT(*) FROM early_release")).isZero();
        assertThat(Orders.recordAll(c, List.of(purchase("r2", 2, 2)))).isEqualTo(1);
    }

    @Test
    void givenAReleaseWaiting_thenAPurchaseDecidedAfterIt_takesTheFastPath_andStaysCreated() throws Exception {
        assertThat(apply(entry("rel", LedgerType.RELEASED, 1, 1L, null, null).withCommandOffset(3)))
                .isEqualTo(LedgerEffect.ORDER_NOT_YET_WRITTEN);

        assertThat(Orders.recordAll(c, List.of(purchase("r1", 1, 4)))).isEqualTo(1);

        assertThat(status(order("r1"))).isEqualTo("CREATED");
        assertThat(one("SELECT COUNT(*) FROM early_release")).isEqualTo(1);
    }

    @Test
    void givenAPaidOrder_whenAReleaseArrives_thenItStaysPaidAndTheAnomalyIsRecorded() throws Exception {
        Orders.record(c, purchase("r1", 1, 1));
        long orderId = order("r1");
        update("UPDATE purchase_order SET status = 'PAID' WHERE order_id = ?", orderId);

        assertThat(apply(entry("rel", LedgerType.RELEASED, 1, 1L, "r1", orderId)))
                .isEqualTo(LedgerEffect.PAID_ORDER_RELEASED);

        assertThat(status(orderId)).isEqualTo("PAID");
        assertThat(text("SELECT kind FROM order_anomaly WHERE op_id = 'rel'")).isEqualTo("paid_order_released");
    }

    @Test
    void givenAPayingOrder_whenTheStreamMarksItPaid_thenItIsPaidAndItsPaymentAccepted_once() throws Exception {
        Orders.record(c, purchase("r1", 1, 1));
        long orderId = order("r1");
        paying(orderId, "pay-1");

        assertThat(apply(entry("pay", LedgerType.PAID, 0, 1L, "r1", orderId))).isEqualTo(LedgerEffect.ORDER_PAID);
        assertThat(status(orderId)).isEqualTo("PAID");
        assertThat(payment("pay-1")).isEqualTo("ACCEPTED");

        assertThat(apply(entry("pay-again", LedgerType.PAID, 0, 1L, "r1", orderId)))
                .as("not PAYING any more")
                .isEqualTo(LedgerEffect.APPLIED);
        assertThat(apply(entry("pay-no-order", LedgerType.PAID, 0, 1L, "r1", null)))
                .isEqualTo(LedgerEffect.APPLIED);
    }

    @Test
    void givenAPayingOrder_whenTheStreamRefusesThePayment_thenTheOrderIsCancelledAndThePaymentRefused()
            throws Exception {
        Orders.record(c, purchase("r1", 1, 1));
        long orderId = order("r1");
        paying(orderId, "pay-1");

        assertThat(apply(entry("pay", LedgerType.PAYMENT_REFUSED, 0, 1L, "r1", orderId)))
                .isEqualTo(LedgerEffect.ORDER_ENDED);

        assertThat(status(orderId)).isEqualTo("CANCELLED");
        assertThat(one("SELECT COUNT(*) FROM purchase_order WHERE live_user_id IS NOT NULL"))
                .isZero();
        assertThat(payment("pay-1")).isEqualTo("REFUSED");
    }

    @Test
    void givenPaidOrdersBeforeAndAfterANewOpen_thenOnlyTheEarlierSalesBuyerMayBuyAgain() throws Exception {
        Orders.record(c, purchase("old", 1, 5));
        Orders.record(c, purchase("new", 2, 20, 10));
        update("UPDATE purchase_order SET status = 'PAID' WHERE goods_id = ?", GOODS);

        apply(entry("open-2", LedgerType.OPENED, 5, null, null, null).withCommandOffset(10));

        assertThat(one("SELECT live_user_id FROM purchase_order WHERE request_id = 'old'"))
                .isZero(); // NULL reads as 0
        assertThat(text("SELECT live_user_id FROM purchase_order WHERE request_id = 'old'"))
                .isNull();
        assertThat(one("SELECT live_user_id FROM purchase_order WHERE request_id = 'new'"))
                .isEqualTo(2);
    }

    @Test
    void givenABucketedGoods_thenItsOneSaleRowSumsTheBuckets_andTransfersNetToZero_onceEachSideIsApplied()
            throws Exception {
        BucketOf b0 = BucketOf.of(0, 2, 3);
        BucketOf b1 = BucketOf.of(1, 2, 4);
        apply(
                entry(BucketOf.shareOpId("open", 0), LedgerType.OPENED, 5, null, null, null)
                        .withCommandOffset(0)
                        .inBucket(b0),
                3);
        apply(
                entry(BucketOf.shareOpId("open", 1), LedgerType.OPENED, 4, null, null, null)
                        .withCommandOffset(0)
                        .inBucket(b1),
                4);
        assertThat(one("SELECT opened_stock FROM sale WHERE goods_id = ?", GOODS))
                .as("one open, a share in each bucket: two changes")
                .isEqualTo(9);
        String out = BucketOf.transferOpId("borrow:" + GOODS + ":1:1", LedgerType.TRANSFERRED_OUT);
        String in = BucketOf.transferOpId("borrow:" + GOODS + ":1:1", LedgerType.TRANSFERRED_IN);
        assertThat(apply(
                        entry(out, LedgerType.TRANSFERRED_OUT, 2, null, null, null)
                                .inBucket(b0.withPeer(1)),
                        3))
                .isEqualTo(LedgerEffect.APPLIED);
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", GOODS))
                .as("units in transit are in neither bucket")
                .isEqualTo(7);
        apply(entry(in, LedgerType.TRANSFERRED_IN, 2, null, null, null).inBucket(b1.withPeer(0)), 4);
        assertThat(apply(
                        entry(in, LedgerType.TRANSFERRED_IN, 2, null, null, null)
                                .inBucket(b1.withPeer(0)),
                        4))
                .as("each side applies once")
                .isEqualTo(LedgerEffect.NONE);
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", GOODS)).isEqualTo(9);
        assertThat(one("SELECT opened_stock FROM sale WHERE goods_id = ?", GOODS))
                .isEqualTo(9);
    }

    @Test
    void givenPaidOrdersInTwoBuckets_whenOneBucketOpensAgain_thenOnlyItsPartitionsEarlierBuyersMayBuyAgain()
            throws Exception {
        // every entry of the goods is on its home ledger partition (0); bucket 0 decides in commands partition 0,
        // bucket 1 in partition 1: offsets compare only within one partition, the one the entry names
        int record = 0;
        Orders.record(c, purchase("old-in-0", 1, 5));
        LedgerEntry inBucket1 =
                Purchases.deducted(GOODS, "new-in-1", 2, 0, 3, 0).inBucket(BucketOf.of(1, 2, 1));
        Orders.record(c, new Deduction(inBucket1, inBucket1.commandPartition(record), null));
        update("UPDATE purchase_order SET status = 'PAID' WHERE goods_id = ?", GOODS);

        LedgerEntry reopened = entry("open-2", LedgerType.OPENED, 5, null, null, null)
                .withCommandOffset(10)
                .inBucket(BucketOf.of(0, 2, 0));
        apply(reopened, reopened.commandPartition(record));

        assertThat(text("SELECT live_user_id FROM purchase_order WHERE request_id = 'old-in-0'"))
                .isNull();
        assertThat(one("SELECT live_user_id FROM purchase_order WHERE request_id = 'new-in-1'"))
                .as("offset 3 of partition 1 is not before offset 10 of partition 0")
                .isEqualTo(2);
        assertThat(one("SELECT source_partition FROM purchase_order WHERE request_id = 'new-in-1'"))
                .as("placed in its bucket's partition, not its ledger record's")
                .isEqualTo(1);
    }

    @Test
    void givenAnOrderARepairWroteFirst_whenItsDeductedEntryArrives_thenItIsKept_andItsDeductedRowNamesIt()
            throws Exception {
        update(
                "INSERT INTO purchase_order (request_id, goods_id, user_id, quantity, status, live_user_id) "
                        + "VALUES ('r1', ?, 1, 1, 'CREATED', 1)",
                GOODS);
        long repaired = order("r1");

        assertThat(Orders.record(c, purchase("r1", 1, 1))).isTrue();

        assertThat(one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ?", GOODS))
                .isEqualTo(1);
        assertThat(one("SELECT order_id FROM stock_ledger WHERE op_id = ?", "deduct:" + GOODS + ":r1"))
                .isEqualTo(repaired);
    }

    @Test
    void givenABuyerHoldingALiveOrder_whenTheDeductedEntryOfAnotherPurchaseOfTheGoodsArrives_thenItIsNotTakenForIt()
            throws Exception {
        Orders.record(c, purchase("r1", 1, 1));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Orders.record(c, purchase("r2", 1, 2)))
                .as("the stream never sells one buyer twice: a second live order is a fault, not a redelivery")
                .isInstanceOf(java.sql.SQLIntegrityConstraintViolationException.class);
    }

    @Test
    void twoGoodsOpenedUnderTheSameOpIdAreTwoOpens_eachSaleGetsItsStock() throws SQLException {
        long other = GOODS + 1;
        apply(LedgerEntry.of("open-same", GOODS, LedgerType.OPENED, 40, null, null, null, 40, AT));
        LedgerEffect second =
                apply(LedgerEntry.of("open-same", other, LedgerType.OPENED, 25, null, null, null, 25, AT));

        assertThat(second).isEqualTo(LedgerEffect.APPLIED);
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", GOODS)).isEqualTo(40);
        assertThat(one("SELECT stock FROM sale WHERE goods_id = ?", other)).isEqualTo(25);
        assertThat(apply(LedgerEntry.of("open-same", other, LedgerType.OPENED, 25, null, null, null, 25, AT)))
                .as("the same goods' entry again is a redelivery")
                .isEqualTo(LedgerEffect.NONE);
    }
}
