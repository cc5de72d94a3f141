package dev.seckill.gateway.door;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.redis.RedisConnections;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/** The door's sold-out mark: what sets it, what clears it, and its renewal from Redis's stock instead of expiring. */
class SoldOutMarksTest {
    static final long GOODS = 7;
    static final long TTL = 2_000;

    final AtomicLong now = new AtomicLong(1_000_000);
    /** The last stock read of GOODS: what it said (null: none yet), and when it started. */
    Long readStock;

    long readAt;
    final SoldOutMarks marks =
            new SoldOutMarks(TTL, (goods, since) -> goods == GOODS && readAt >= since ? readStock : null, now::get);

    /** A window lookup of GOODS that started just now and read {@code stock}. */
    void read(long stock) {
        readStock = stock;
        readAt = now.get();
    }

    static Outcome outcome(OutcomeKind kind, int quantity, long stockAfter) {
        Instant at = Instant.ofEpochMilli(1_000_000);
        return Outcome.of("r-" + kind + stockAfter, GOODS, 1, quantity, kind, null, stockAfter, at, at, 0, 0);
    }

    @Test
    void theSuccessThatTakesTheLastUnitMarks_aSuccessThatLeavesStockClears() {
        marks.outcome(outcome(OutcomeKind.SUCCESS, 1, 3));
        assertThat(marks.soldOut(GOODS)).isFalse();
        marks.outcome(outcome(OutcomeKind.SUCCESS, 1, 0));
        assertThat(marks.soldOut(GOODS)).as("the last unit is gone").isTrue();
        marks.outcome(outcome(OutcomeKind.SUCCESS, 1, 2)); // a release was sold again with stock left
        assertThat(marks.soldOut(GOODS)).isFalse();
    }

    @Test
    void givenABucketedGoods_aSuccessThatEmptiesItsBucketMarksNothing_aSoldOutMarks_andTheMarkLapsesUnrenewed() {
        marks.split(GOODS, 4);
        marks.outcome(outcome(OutcomeKind.SUCCESS, 1, 0));
        assertThat(marks.soldOut(GOODS))
                .as("one bucket emptied: the others may hold units")
                .isFalse();
        marks.outcome(outcome(OutcomeKind.SOLD_OUT, 1, 0));
        assertThat(marks.soldOut(GOODS))
                .as("the stream answers SOLD_OUT once every bucket was found empty")
                .isTrue();
        now.addAndGet(TTL / 2);
        read(0); // bucket 0's keys: says nothing of the goods
        now.addAndGet(TTL / 2);
        assertThat(marks.soldOut(GOODS)).isFalse();
        assertThat(marks.renewals()).isZero();

        marks.split(GOODS, 1); // opened again, one bucket
        marks.outcome(outcome(OutcomeKind.SUCCESS, 1, 0));
        assertThat(marks.soldOut(GOODS)).isTrue();
    }

    static dev.seckill.contracts.ledger.LedgerEntry entry(
            String opId, dev.seckill.contracts.ledger.LedgerType type, long quantity, long left, int bucket) {
        return dev.seckill.contracts.ledger.LedgerEntry.of(
                        opId, GOODS, type, quantity, null, null, null, left, Instant.ofEpochMilli(1_000_000))
                .inBucket(dev.seckill.contracts.ledger.BucketOf.of(bucket, 3, bucket));
    }

    @Test
    void givenABucketedGoods_itsLedgerMarksItOnceEveryBucketSaysNoneLeftAndNoneIsInTransit() {
        for (int b = 0; b < 3; b++)
            marks.bucketEntry(entry("open@b" + b, dev.seckill.contracts.ledger.LedgerType.OPENED, 2, 2, b));
        marks.bucketEntry(entry("d1", dev.seckill.contracts.ledger.LedgerType.DEDUCTED, 2, 0, 0));
        marks.bucketEntry(entry("d2", dev.seckill.contracts.ledger.LedgerType.DEDUCTED, 2, 0, 1));
        marks.bucketEntry(entry("b:1:out", dev.seckill.contracts.ledger.LedgerType.TRANSFERRED_OUT, 2, 0, 2));
        assertThat(marks.soldOut(GOODS))
                .as("every bucket at 0, but 2 units on their way to bucket 1")
                .isFalse();
        marks.bucketEntry(entry("b:1:in", dev.seckill.contracts.ledger.LedgerType.TRANSFERRED_IN, 2, 2, 1));
        assertThat(marks.soldOut(GOODS)).isFalse();
        marks.bucketEntry(entry("d3", dev.seckill.contracts.ledger.LedgerType.DEDUCTED, 2, 0, 1));
        assertThat(marks.soldOut(GOODS))
                .as("the last units sold, none in transit")
                .isTrue();
        // a new sale of the goods starts the count again: one bucket heard says nothing of the others
        marks.clear(GOODS);
        marks.bucketEntry(entry("again@b0", dev.seckill.contracts.ledger.LedgerType.OPENED, 0, 0, 0));
        assertThat(marks.soldOut(GOODS)).isFalse();
    }

    @Test
    void givenAViewStartedMidSale_aTransferInWhoseOutItNeverSawMarksNothing() {
        // the view read the ledger from its end: bucket 0 gave 5 to bucket 1 before it
        marks.bucketEntry(entry("b:5:in", dev.seckill.contracts.ledger.LedgerType.TRANSFERRED_IN, 5, 5, 1));
        marks.bucketEntry(entry("b:6:out", dev.seckill.contracts.ledger.LedgerType.TRANSFERRED_OUT, 3, 0, 0));
        marks.bucketEntry(entry("d1", dev.seckill.contracts.ledger.LedgerType.DEDUCTED, 5, 0, 1));
        marks.bucketEntry(entry("d2", dev.seckill.contracts.ledger.LedgerType.DEDUCTED, 1, 0, 2));
        assertThat(marks.soldOut(GOODS))
                .as("3 units on their way to bucket 1: no mark from a sale whose open this view did not see")
                .isFalse();
        // and a goods marked sold out is let through again by any entry of a bucket with units
        marks.outcome(outcome(OutcomeKind.SOLD_OUT, 1, 0));
        assertThat(marks.soldOut(GOODS)).isTrue();
        marks.bucketEntry(entry("b:6:in", dev.seckill.contracts.ledger.LedgerType.TRANSFERRED_IN, 3, 3, 1));
        assertThat(marks.soldOut(GOODS)).isFalse();
    }

    @Test
    void aSoldOutThatLeavesStockMarksNothing_aSmallerPurchaseCanStillSucceed() {
        marks.outcome(outcome(OutcomeKind.SOLD_OUT, 2, 1));
        assertThat(marks.soldOut(GOODS)).isFalse();
        marks.outcome(outcome(OutcomeKind.DUPLICATE, 1, 0));
        assertThat(marks.soldOut(GOODS))
                .as("a DUPLICATE says nothing about others")
                .isFalse();
        marks.outcome(outcome(OutcomeKind.SOLD_OUT, 1, 0));
        assertThat(marks.soldOut(GOODS)).isTrue();
    }

    @Test
    void atTheTtlTheMarkIsRenewedWhileAReadSinceItSaysNoStock_andLapsesWhenOneSaysStock() {
        marks.outcome(outcome(OutcomeKind.SOLD_OUT, 1, 0));
        for (int ttls = 1; ttls <= 5; ttls++) {
            now.addAndGet(TTL / 2);
            read(0); // the lookups go on while buyers do
            now.addAndGet(TTL / 2);
            assertThat(marks.soldOut(GOODS))
                    .as("still sold out after %d TTLs", ttls)
                    .isTrue();
        }
        assertThat(marks.renewals()).isEqualTo(5);
        now.addAndGet(TTL / 2);
        read(4); // stock came back without an entry the gateway follows (a repair)
        now.addAndGet(TTL / 2);
        assertThat(marks.soldOut(GOODS)).isFalse();
        read(0);
        assertThat(marks.soldOut(GOODS))
                .as("a lapsed mark comes back only with an outcome")
                .isFalse();
    }

    @Test
    void aReadFromBeforeTheMarkNeverRenewsIt() {
        // read before a release; the mark comes from a SOLD_OUT decided before the release but seen after its clear
        read(0);
        now.addAndGet(1);
        marks.outcome(outcome(OutcomeKind.SOLD_OUT, 1, 0));
        now.addAndGet(TTL);
        assertThat(marks.soldOut(GOODS)).isFalse();
        assertThat(marks.renewals()).isZero();
    }

    @Test
    void withNoReadTheMarkLapsesAtItsTtl() {
        marks.outcome(outcome(OutcomeKind.SOLD_OUT, 1, 0));
        now.addAndGet(TTL - 1);
        assertThat(marks.soldOut(GOODS)).isTrue();
        now.addAndGet(1);
        assertThat(marks.soldOut(GOODS)).isFalse();
        assertThat(marks.renewals()).isZero();
    }

    @Test
    void aClearThatRacesARenewalWins() {
        // the release's clear lands between the renewal's read of the stock and its compare-and-set
        SoldOutMarks[] racing = new SoldOutMarks[1];
        racing[0] = new SoldOutMarks(
                TTL,
                (goods, since) -> {
                    racing[0].clear(goods);
                    return 0L;
                },
                now::get);
        racing[0].outcome(outcome(OutcomeKind.SOLD_OUT, 1, 0));
        now.addAndGet(TTL);
        assertThat(racing[0].soldOut(GOODS)).isFalse();
        assertThat(racing[0].renewals()).isZero();
        assertThat(racing[0].soldOut(GOODS)).as("and it stays cleared").isFalse();
    }

    @Test
    void overRealRedis_theMarkOutlivesSeveralTtlsOfASoldOutGoods_andLapsesOnceTheStockKeyHoldsStockAgain()
            throws Exception {
        String prefix = "soldout-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        RedisKeys keys = new RedisKeys(prefix);
        ThreadPoolExecutor pool = SaleWindows.lookups(1, 10);
        try (UnifiedJedis redis = RedisConnections.open(Settings.with(Map.of(Settings.REDIS_PREFIX, prefix)))) {
            long start = System.currentTimeMillis();
            redis.hset(
                    keys.sale(GOODS),
                    Map.of(
                            "startAt", Long.toString(start - 1_000),
                            "endAt", Long.toString(start + 3_600_000),
                            "status", "open"));
            redis.set(keys.stock(GOODS), "0");
            // windows (and stock) kept 100 ms, marks of a second: a renewal needs a lookup since the mark was set or
            // last renewed, so a lookup may stall ~900 ms on a busy machine before the mark lapses
            SaleWindows windows = new SaleWindows(redis, keys, pool, pool, 100, 100); // one lane: no flood here
            SoldOutMarks real = new SoldOutMarks(1_000, windows::stockReadSince, System::currentTimeMillis);
            real.outcome(outcome(OutcomeKind.SOLD_OUT, 1, 0));
            // the door asks the window first (which keeps the lookups coming), then the mark, as PurchaseRoute does
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                assertThat(windows.reject(GOODS, System.currentTimeMillis())).isNull();
                assertThat(real.soldOut(GOODS))
                        .as("never lapses while Redis says 0")
                        .isTrue();
                return real.renewals() >= 3;
            });
            redis.set(keys.stock(GOODS), "3");
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                windows.reject(GOODS, System.currentTimeMillis());
                return !real.soldOut(GOODS);
            });
        } finally {
            pool.shutdownNow();
            try (UnifiedJedis redis = RedisConnections.open(Settings.with(Map.of(Settings.REDIS_PREFIX, prefix)))) {
                redis.del(keys.sale(GOODS), keys.stock(GOODS));
            }
        }
    }
}
