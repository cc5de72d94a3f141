package dev.seckill.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.ledger.BucketOf;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reconciler's DB repairs over the real stack, with order-writer applying the ledger beside it (so a goods
 * settles): a missing order is written for its own goods, audited only when it was written, and placed in its sale so
 * that the goods' next sale ends it as it ends the writer's orders; DB stock off the ledger is set to what it says.
 */
class ReconcilerRepairsTest {
    final ReconcilerStack stack = new ReconcilerStack();

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    /** Cycles until the goods was judged settled (its repairs made); returns that cycle's row. */
    static Reconciler.Row settledCycle(Reconciler r, long goods) {
        return await().atMost(Duration.ofSeconds(60)).until(() -> r.cycle(goods).get(0), Reconciler.Row::settled);
    }

    @Test
    void givenAGoodsSplitIntoBuckets_thenItsRedisIsTheSumOfItsBucketsKeys_andItsDriftIsFlaggedOnce_neverRestoredAsOne()
            throws Exception {
        long goods = 9201;
        BucketOf b0 = BucketOf.of(0, 2, 0);
        BucketOf b1 = BucketOf.of(1, 2, 1);
        stack.ledger(opened(goods, 0, 3).inBucket(b0));
        stack.ledger(opened(goods, 1, 2).inBucket(b1));
        stack.ledger(LedgerEntry.of(
                        LedgerEntry.deductOpId(goods, "r-5"),
                        goods,
                        LedgerType.DEDUCTED,
                        1,
                        5L,
                        "r-5",
                        null,
                        1,
                        Instant.now())
                .inBucket(b1));
        stack.redis.set(stack.keys.stock(goods, 0), "3");
        stack.redis.set(stack.keys.stock(goods, 1), "1");
        stack.redis.hset(stack.keys.buyers(goods, 1), "5", "1");
        stack.writer();
        Reconciler r = stack.reconciler(stack.producer);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> stack.one("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ?", goods) == 1);
        Reconciler.Row agrees = settledCycle(r, goods);
        assertThat(agrees.drift().redisStock())
                .as("3 + 1 units over the two buckets' keys")
                .isEqualTo(4);
        assertThat(agrees.drift().redisAgrees()).isTrue();
        assertThat(agrees.repairs()).isEmpty();

        stack.redis.set(stack.keys.stock(goods, 1), "0"); // bucket 1 lost a write
        Reconciler.Row drifted = settledCycle(r, goods);
        assertThat(drifted.repairs()).containsExactly("redis_drift: flagged");
        assertThat(settledCycle(r, goods).repairs()).as("flagged once").isEmpty();
        assertThat(stack.one(
                        "SELECT COUNT(*) FROM reconcile_audit WHERE goods_id = ? AND action = 'restore_sent'", goods))
                .as("a restore of the goods would put all its units in bucket 0's keys")
                .isZero();
    }

    /** Bucket {@code bucket}'s share of the goods' open. */
    static LedgerEntry opened(long goods, int bucket, long stock) {
        return ReconcilerStack.openedEntry(BucketOf.shareOpId("open-" + goods, bucket), goods, stock, 0);
    }

    @Test
    void aMissingOrderIsWrittenForItsOwnGoods_whenAnotherGoodsHasAnOrderWithTheSameRequestId() throws Exception {
        long a = 9101;
        long b = 9102;
        stack.opened(a, 5, 0);
        stack.opened(b, 5, 0);
        stack.deducted(a, 1, "same-r", 4);
        stack.deducted(b, 2, "same-r", 4);
        stack.redisHolds(a, 4, 1);
        stack.redisHolds(b, 4, 2);
        stack.writer();
        stack.orderLost(b, "same-r"); // b's order row is lost; a's, with the same requestId, is kept
        Reconciler r = stack.reconciler(stack.producer);
        settledCycle(r, a);
        assertThat(settledCycle(r, b).repairs()).contains("missing_order: order_written");
        assertThat(stack.text(
                        "SELECT CONCAT(user_id, '/', live_user_id, '/', trace_id) FROM purchase_order "
                                + "WHERE goods_id = ? AND request_id = 'same-r'",
                        b))
                .isEqualTo("2/2/reconciler");
        assertThat(stack.one("SELECT user_id FROM purchase_order WHERE goods_id = ? AND request_id = 'same-r'", a))
                .isEqualTo(1);
        assertThat(stack.one("SELECT COUNT(*) FROM reconcile_audit WHERE kind = 'missing_order'"))
                .as("only b's order was missing")
                .isEqualTo(1);
    }

    @Test
    void aMissingOrderThatCannotBeWritten_isAuditedOnceAsNotWritten_notAsWrittenEveryCycle() throws Exception {
        long goods = 9201;
        stack.opened(goods, 5, 0);
        // the buyer's live-order key is held by an order with no SUCCESS behind it: the missing one cannot be inserted
        stack.strayOrder(goods, 7, "other-7");
        stack.deducted(goods, 7, "r-7", 4);
        stack.redisHolds(goods, 4, 7);
        stack.writer();
        Reconciler r = stack.reconciler(stack.producer);
        assertThat(settledCycle(r, goods).repairs())
                .contains("missing_order: not_written", "stray_order: flagged")
                .doesNotContain("missing_order: order_written");
        for (int i = 0; i < 3; i++) {
            Reconciler.Row row = settledCycle(r, goods);
            assertThat(row.repairs()).as("cycle " + i + " repeats nothing").isEmpty();
        }
        assertThat(stack.text("SELECT GROUP_CONCAT(action) FROM reconcile_audit WHERE kind = 'missing_order'"))
                .as("what was done, once: no order was written")
                .isEqualTo("not_written");
        assertThat(stack.one("SELECT COUNT(*) FROM purchase_order WHERE request_id = 'r-7'"))
                .isZero();
        assertThat(stack.metrics
                        .get("seckill_reconcile_repairs")
                        .tags("kind", "missing_order")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void anOrderTheReconcilerWrote_endsWhenItsGoodsNextSaleOpens_likeTheWritersOwn() throws Exception {
        long goods = 9301;
        stack.opened(goods, 5, 10);
        stack.deducted(goods, 3, "lost-3", 4);
        stack.redisHolds(goods, 4, 3);
        stack.writer();
        stack.orderLost(goods, "lost-3");
        Reconciler r = stack.reconciler(stack.producer);
        assertThat(settledCycle(r, goods).repairs()).contains("missing_order: order_written");
        try (var c = stack.db.getConnection()) {
            c.createStatement() // the buyer paid (pay -> PAID through the stream)
                    .executeUpdate("UPDATE purchase_order SET status = 'PAID' WHERE request_id = 'lost-3'");
        }

        stack.opened(goods, 5, 20); // the goods' next sale
        await().atMost(Duration.ofSeconds(60))
                .until(() -> stack.text("SELECT live_user_id FROM purchase_order WHERE request_id = 'lost-3'") == null);
        assertThat(stack.text("SELECT status FROM purchase_order WHERE request_id = 'lost-3'"))
                .as("paid, and kept")
                .isEqualTo("PAID");
        stack.deducted(goods, 3, "again-3", 4); // so its buyer may buy in the new sale
        await().atMost(Duration.ofSeconds(60))
                .until(() -> stack.text("SELECT status FROM purchase_order WHERE request_id = 'again-3'") != null);
        assertThat(stack.one("SELECT live_user_id FROM purchase_order WHERE request_id = 'again-3'"))
                .isEqualTo(3);
        assertThat(stack.text("SELECT CONCAT(source_partition, '@', source_offset) FROM purchase_order "
                        + "WHERE request_id = 'lost-3'"))
                .as("placed at its sale's OPENED in the goods' commands partition")
                .isEqualTo(PipelineLag.partitionOf(goods, 2) + "@10");
    }

    @Test
    void dbStockOffTheLedger_isSetToWhatTheLedgerSays_onceAndAudited() throws Exception {
        long goods = 9401;
        stack.opened(goods, 5, 0);
        stack.deducted(goods, 4, "buy-4", 4);
        stack.redisHolds(goods, 4, 4);
        stack.writer();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> stack.text("SELECT order_id FROM purchase_order WHERE request_id = 'buy-4'") != null);
        try (var c = stack.db.getConnection()) { // a DB stock update lost (a restored backup, a hand edit)
            c.createStatement().executeUpdate("UPDATE sale SET stock = 7 WHERE goods_id = " + goods);
        }
        Reconciler r = stack.reconciler(stack.producer);
        assertThat(settledCycle(r, goods).repairs()).containsExactly("db_drift: stock_set");
        assertThat(stack.one("SELECT stock FROM sale WHERE goods_id = ?", goods))
                .isEqualTo(4);
        assertThat(stack.text("SELECT detail FROM reconcile_audit WHERE kind = 'db_drift'"))
                .isEqualTo("DB stock 7, ledger says 4: set to 4");
        for (int i = 0; i < 2; i++)
            assertThat(settledCycle(r, goods).repairs())
                    .as("cycle " + i + " repeats nothing")
                    .isEmpty();
    }
}
