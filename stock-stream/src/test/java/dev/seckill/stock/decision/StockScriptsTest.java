package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.stock.ledger.GoodsFold;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.params.ScanParams;

/** Lua semantics, straight against a real redis-server. */
class StockScriptsTest {
    static final long GOODS = 1001;
    /** Windows come from the clock the keys' lifetime uses too, never from a calendar day (issue 17). */
    static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(10));

    static final Instant END = START.plus(Duration.ofHours(1));
    static final Instant DURING = START.plusSeconds(60);

    TestRedis redis;
    StockScripts scripts;
    long offset;

    @BeforeEach
    void setUp() {
        redis = new TestRedis();
        scripts = redis.scripts();
    }

    @AfterEach
    void tearDown() {
        redis.close();
    }

    String pos() {
        return "0:" + (offset++);
    }

    void open(long stock, int limit) {
        LuaResult r = scripts.openSale(new OpenSale(GOODS, stock, START, END, limit, "open-" + offset, false), pos());
        assertThat(r.code()).isEqualTo("OPENED");
    }

    LuaResult buy(String requestId, long user, int qty, Instant at) {
        return scripts.purchase(new Purchase(requestId, GOODS, user, qty, at), pos());
    }

    long stockLeft() {
        return Long.parseLong(redis.redis.get(redis.keys.stock(GOODS)));
    }

    @Test
    void givenAStoredDecision_whenTheSameCommandIsReplayed_thenTheSameDecisionIsReturnedAsReplay() {
        open(1, 1);
        LuaResult first = scripts.purchase(new Purchase("r1", GOODS, 7, 1, DURING), "3:42");
        LuaResult replay = scripts.purchase(new Purchase("r1", GOODS, 7, 1, DURING), "3:42");
        assertThat(first).isEqualTo(new LuaResult("SUCCESS", "", 0, LuaResult.Status.NEW));
        assertThat(replay).isEqualTo(new LuaResult("SUCCESS", "", 0, LuaResult.Status.REPLAY));
        assertThat(stockLeft()).isZero();
    }

    @Test
    void givenADecidedRequestId_whenItArrivesAgainAtAnotherOffset_thenNothingChangesAndItIsARetry() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        LuaResult retry = buy("r1", 7, 1, DURING);
        assertThat(retry.status()).isEqualTo(LuaResult.Status.RETRY);
        assertThat(retry.code()).isEqualTo("SUCCESS");
        assertThat(stockLeft()).isEqualTo(4);
    }

    @Test
    void dedupeComesFirst_aRetryOfADecidedRequestNeverTouchesStockEvenWhenSoldOut() {
        open(1, 1);
        buy("r1", 7, 1, DURING);
        LuaResult other = buy("r2", 8, 1, DURING);
        assertThat(other.code()).isEqualTo("SOLD_OUT");
        assertThat(buy("r1", 7, 1, DURING).code())
                .as("stored decision wins over the current stock")
                .isEqualTo("SUCCESS");
    }

    @Test
    void aBuyerWithALivePurchaseIsDuplicate_andTheStockIsUntouched() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        LuaResult again = buy("r2", 7, 1, DURING);
        assertThat(again.code()).isEqualTo("DUPLICATE");
        assertThat(stockLeft()).isEqualTo(4);
    }

    @Test
    void theDuplicateCheckComesBeforeTheStockCheck() {
        open(1, 1);
        buy("r1", 7, 1, DURING);
        assertThat(buy("r2", 7, 1, DURING).code())
                .as("already holds one, stock is 0")
                .isEqualTo("DUPLICATE");
    }

    @Test
    void stockEdgeCases_exactlyZeroAndQuantityAboveStock() {
        open(3, 5);
        assertThat(buy("r1", 1, 3, DURING)).isEqualTo(new LuaResult("SUCCESS", "", 0, LuaResult.Status.NEW));
        assertThat(buy("r2", 2, 1, DURING).code()).isEqualTo("SOLD_OUT");
        assertThat(stockLeft()).isZero();
    }

    @Test
    void quantityAboveRemainingStockIsSoldOutWithoutPartialDeduct() {
        open(2, 5);
        assertThat(buy("r1", 1, 3, DURING).code()).isEqualTo("SOLD_OUT");
        assertThat(stockLeft()).isEqualTo(2);
        assertThat(buy("r2", 1, 2, DURING).code()).isEqualTo("SUCCESS");
    }

    @Test
    void theWindowIsJudgedByAcceptedAt_notTheWallClock() {
        open(5, 1);
        assertThat(buy("early", 1, 1, START.minusMillis(1)))
                .isEqualTo(new LuaResult("REJECTED", "not_started", 5, LuaResult.Status.NEW));
        assertThat(buy("first", 2, 1, START).code()).isEqualTo("SUCCESS");
        assertThat(buy("late", 3, 1, END).detail()).isEqualTo("ended");
        assertThat(buy("last", 4, 1, END.minusMillis(1)).code()).isEqualTo("SUCCESS");
    }

    @Test
    void noSaleAndOverLimitAreRejectedWithTheirReason() {
        assertThat(buy("nosale", 1, 1, DURING))
                .isEqualTo(new LuaResult("REJECTED", "no_sale", 0, LuaResult.Status.NEW));
        assertThat(redis.redis.pttl(redis.keys.decisions(GOODS)))
                .as("decisions of a goods without sale expire")
                .isPositive();
        open(5, 2);
        assertThat(buy("big", 1, 3, DURING).detail()).isEqualTo("over_limit");
        assertThat(buy("ok", 1, 2, DURING).code()).isEqualTo("SUCCESS");
        assertThat(stockLeft()).isEqualTo(3);
    }

    @Test
    void anInvalidPurchaseIsStoredAsRejectedInvalid() {
        open(5, 1);
        assertThat(scripts.invalidPurchase("bad", GOODS, 0, 0, null, "0:99").detail())
                .isEqualTo("invalid");
        assertThat(scripts.invalidPurchase("bad", GOODS, 0, 0, null, "0:100").status())
                .isEqualTo(LuaResult.Status.RETRY);
    }

    @Test
    void releaseGivesBackWhatTheBuyerHolds_andFreesTheBuyer() {
        open(5, 3);
        buy("r1", 7, 2, DURING);
        LuaResult rel = scripts.release(new Release(GOODS, 7, 2, 11L, "r1", "payment_timeout", "rel-11"), pos());
        assertThat(rel).isEqualTo(new LuaResult("RELEASED", "2", 5, LuaResult.Status.NEW));
        assertThat(buy("r2", 7, 1, DURING).code())
                .as("a released buyer may buy again")
                .isEqualTo("SUCCESS");
    }

    @Test
    void releaseIsIdempotentByOpId() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        scripts.release(new Release(GOODS, 7, 1, 11L, "r1", "payment_timeout", "rel-11"), pos());
        LuaResult again = scripts.release(new Release(GOODS, 7, 1, 11L, "r1", "payment_timeout", "rel-11"), pos());
        assertThat(again.status()).isEqualTo(LuaResult.Status.RETRY);
        assertThat(stockLeft()).isEqualTo(5);
    }

    @Test
    void releaseOfANonHolderIsANoOp() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        LuaResult stranger = scripts.release(new Release(GOODS, 8, 1, null, null, "repair", "rel-x"), pos());
        assertThat(stranger.code()).isEqualTo("NOOP");
        LuaResult otherRequest = scripts.release(new Release(GOODS, 7, 1, null, "r-other", "repair", "rel-y"), pos());
        assertThat(otherRequest.code())
                .as("names a request the buyer does not hold")
                .isEqualTo("NOOP");
        assertThat(stockLeft()).isEqualTo(4);
    }

    @Test
    void openSaleRefusesResidualKeysUnlessForced() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        LuaResult refused = scripts.openSale(new OpenSale(GOODS, 10, START, END, 1, "reopen", false), pos());
        assertThat(refused.code()).isEqualTo("REFUSED");
        assertThat(stockLeft()).isEqualTo(4);
        LuaResult forced = scripts.openSale(new OpenSale(GOODS, 10, START, END, 1, "reopen-forced", true), pos());
        assertThat(forced).isEqualTo(new LuaResult("OPENED", "6", 10, LuaResult.Status.NEW));
        assertThat(redis.redis.pttl(redis.keys.stock(GOODS)))
                .as("keys expire after the sale")
                .isPositive();
    }

    @Test
    void closeSaleEndsTheSaleForLaterCommands() {
        open(5, 1);
        assertThat(scripts.closeSale(new CloseSale(GOODS, "close-1"), pos()).code())
                .isEqualTo("CLOSED");
        assertThat(buy("r1", 7, 1, DURING).detail()).isEqualTo("ended");
    }

    @Test
    void restoreReplacesTheGoodsStateAndIsIdempotentByOpId() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        GoodsFold fold = new GoodsFold();
        fold.startAt = START.toEpochMilli();
        fold.endAt = END.toEpochMilli();
        fold.perUserLimit = 1;
        fold.opened = 5;
        fold.stock = 3;
        var holdings = Map.of(8L, new GoodsFold.Holding(2, "r8", 3));
        var restore = new Restore(GOODS, "restore-1");
        assertThat(scripts.restore(
                        restore, fold, holdings, "0:50", scripts.lifetime().expireAt(fold.endAt)))
                .isEqualTo(new LuaResult("RESTORED", "1", 3, LuaResult.Status.NEW));
        assertThat(scripts.restore(
                                restore,
                                fold,
                                holdings,
                                "0:50",
                                scripts.lifetime().expireAt(fold.endAt))
                        .status())
                .isEqualTo(LuaResult.Status.REPLAY);
        assertThat(scripts.restore(
                                restore,
                                fold,
                                holdings,
                                "0:51",
                                scripts.lifetime().expireAt(fold.endAt))
                        .status())
                .isEqualTo(LuaResult.Status.RETRY);
        assertThat(stockLeft()).isEqualTo(3);
        assertThat(buy("r8", 8, 2, DURING).status())
                .as("the restored holder's request keeps a stored SUCCESS")
                .isEqualTo(LuaResult.Status.RETRY);
        assertThat(buy("r7b", 7, 1, DURING).code())
                .as("user 7 is not in the fold: free to buy")
                .isEqualTo("SUCCESS");
    }

    /** Every key under this test's own prefix (SCAN in pages: a KEYS over a big shared Redis would block it). */
    List<String> keysOfThisTest() {
        List<String> found = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            var page = redis.redis.scan(
                    cursor, new ScanParams().match(redis.keys.prefix() + "*").count(1000));
            found.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return found;
    }

    /** Milliseconds each of the goods' five keys has left (-2: no such key, -1: no expiry). */
    List<Long> ttls() {
        return redis.keys.goodsKeys(GOODS).stream().map(redis.redis::pttl).toList();
    }

    @Test
    void aSaleWhoseWindowEndedDaysAgo_opensAsADrillWould_decidesByAcceptedAt_andItsKeysLiveAGraceFromNow() {
        Instant start = START.minus(Duration.ofDays(3)), end = start.plus(Duration.ofHours(1));
        LuaResult opened = scripts.openSale(new OpenSale(GOODS, 2, start, end, 1, "recorded-open", false), pos());
        assertThat(opened.code())
                .as("keys written now live from now, not from the recorded end")
                .isEqualTo("OPENED");
        assertThat(buy("then-1", 1, 1, start.plusSeconds(5)).code()).isEqualTo("SUCCESS");
        assertThat(buy("then-2", 1, 1, start.plusSeconds(6)).code()).isEqualTo("DUPLICATE");
        assertThat(buy("late", 2, 1, end).detail())
                .as("judged by acceptedAt as recorded")
                .isEqualTo("ended");
        assertThat(buy("then-3", 3, 1, end.minusMillis(1)))
                .isEqualTo(new LuaResult("SUCCESS", "", 0, LuaResult.Status.NEW));
        long grace = KeyLifetime.DEFAULT_GRACE.toMillis();
        assertThat(ttls())
                .as("all five keys: sale, stock, buyers, holders, decisions")
                .allSatisfy(ttl -> assertThat(ttl).isBetween(grace - 60_000, grace));
    }

    @Test
    void everyKeyGetsItsLifetimeWhenItIsCreated_buyersAndHoldersIncluded_evenAfterTheLastBuyerLeftAndANewOneCame() {
        open(5, 1);
        assertThat(ttls().subList(2, 4))
                .as("no buyers yet: the hashes do not exist")
                .containsOnly(-2L);
        buy("r1", 7, 1, DURING);
        scripts.release(new Release(GOODS, 7, 1, 1L, "r1", "cancelled", "rel-1"), pos());
        assertThat(ttls().subList(2, 4))
                .as("the last buyer left: the hashes are gone")
                .containsOnly(-2L);
        buy("r2", 8, 1, DURING);
        long expected = END.toEpochMilli() + KeyLifetime.DEFAULT_GRACE.toMillis() - System.currentTimeMillis();
        assertThat(ttls()).allSatisfy(ttl -> assertThat(ttl).isBetween(expected - 60_000, expected));
    }

    @Test
    void releaseAndCloseOfAGoodsWithoutASaleLeaveOnlyKeysThatExpire() {
        scripts.release(new Release(GOODS, 7, 1, 1L, null, "repair", "rel-nosale"), pos());
        scripts.closeSale(new CloseSale(GOODS, "close-nosale"), pos());
        assertThat(redis.redis.hlen(redis.keys.decisions(GOODS))).isEqualTo(2);
        assertThat(redis.redis.pttl(redis.keys.decisions(GOODS))).isPositive();
    }

    @Test
    void aShortSaleLeavesNothingBehindOnceItsLifetimeIsOver() {
        Clock clock = Clock.systemUTC();
        StockScripts shortLived = new StockScripts(
                redis.redis,
                redis.keys,
                new SimpleMeterRegistry(),
                3,
                Duration.ofMillis(10),
                new KeyLifetime(Duration.ofMillis(1500), clock));
        Instant start = clock.instant().minusSeconds(1), end = start.plusSeconds(2);
        shortLived.openSale(new OpenSale(GOODS, 3, start, end, 1, "short", false), pos());
        assertThat(shortLived
                        .purchase(new Purchase("s1", GOODS, 1, 1, start.plusMillis(10)), pos())
                        .code())
                .isEqualTo("SUCCESS");
        shortLived.purchase(new Purchase("s2", GOODS, 2, 1, start.plusMillis(20)), pos());
        shortLived.release(new Release(GOODS, 2, 1, 2L, "s2", "payment_timeout", "rel-s2"), pos());
        shortLived.closeSale(new CloseSale(GOODS, "close-short"), pos());
        assertThat(ttls())
                .as("while it lives, every key has an expiry")
                .allSatisfy(ttl -> assertThat(ttl).isPositive());
        await().atMost(Duration.ofSeconds(10)).until(() -> ttls().stream().allMatch(ttl -> ttl == -2L));
        assertThat(keysOfThisTest()).as("no key of the sale outlives it").isEmpty();
    }

    @Test
    void clientRequestIdsAndOperationIdsNeverShareAnEntry_aPlantedIdMakesNoOperationARetry() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        assertThat(buy("op:rel-11", 8, 1, DURING).code()).isEqualTo("SUCCESS");
        assertThat(buy("op:close-1", 9, 1, DURING).code()).isEqualTo("SUCCESS");
        assertThat(scripts.release(new Release(GOODS, 7, 1, 11L, "r1", "payment_timeout", "rel-11"), pos()))
                .isEqualTo(new LuaResult("RELEASED", "1", 3, LuaResult.Status.NEW));
        assertThat(scripts.closeSale(new CloseSale(GOODS, "close-1"), pos()).status())
                .isEqualTo(LuaResult.Status.NEW);
        assertThat(redis.redis.hkeys(redis.keys.decisions(GOODS)))
                .as("each in its own namespace")
                .contains("req:r1", "req:op:rel-11", "op:rel-11", "req:op:close-1", "op:close-1");
    }

    Pay pay(long user, String requestId, long orderId) {
        return new Pay(GOODS, user, requestId, orderId, "payment-" + orderId, Pay.opIdOf(orderId));
    }

    @Test
    void aPaidPurchaseIsNeverReleased_whateverTheReleaseNames_andItsUnitStaysSold() {
        open(5, 2);
        buy("r1", 7, 2, DURING);
        assertThat(scripts.pay(pay(7, "r1", 11), pos())).isEqualTo(new LuaResult("PAID", "2", 3, LuaResult.Status.NEW));
        assertThat(scripts.release(new Release(GOODS, 7, 2, 11L, "r1", "cancelled", "rel-named"), pos()))
                .as("a release naming the purchase")
                .isEqualTo(new LuaResult("PAID", "0", 3, LuaResult.Status.NEW));
        assertThat(scripts.release(new Release(GOODS, 7, 2, null, null, "repair", "rel-any"), pos()))
                .as("a release of whatever the buyer holds")
                .isEqualTo(new LuaResult("PAID", "0", 3, LuaResult.Status.NEW));
        assertThat(stockLeft()).isEqualTo(3);
        assertThat(buy("r1-again", 7, 1, DURING).code())
                .as("the buyer still holds the paid purchase")
                .isEqualTo("DUPLICATE");
    }

    @Test
    void aPayAfterTheReleaseIsRefused_theUnitStaysBackOnSale() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        scripts.release(new Release(GOODS, 7, 1, 11L, "r1", "order_failed", "rel-11"), pos());
        assertThat(scripts.pay(pay(7, "r1", 11), pos()))
                .isEqualTo(new LuaResult("REFUSED", "0", 5, LuaResult.Status.NEW));
        assertThat(redis.redis.hexists(redis.keys.decisions(GOODS), "paid:r1")).isFalse();
        assertThat(buy("r2", 8, 1, DURING).stockAfter()).isEqualTo(4);
    }

    @Test
    void aPayOfAnotherPurchaseOfTheBuyer_orOfNobody_isRefused_andAPayIsIdempotentByOpId() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        assertThat(scripts.pay(pay(7, "r-old", 10), pos()).code())
                .as("not the purchase the buyer holds")
                .isEqualTo("REFUSED");
        assertThat(scripts.pay(pay(9, "r9", 12), pos()).code())
                .as("a buyer who holds nothing")
                .isEqualTo("REFUSED");
        assertThat(scripts.pay(pay(7, "r1", 11), "0:900"))
                .isEqualTo(new LuaResult("PAID", "1", 4, LuaResult.Status.NEW));
        assertThat(scripts.pay(pay(7, "r1", 11), "0:900").status()).isEqualTo(LuaResult.Status.REPLAY);
        assertThat(scripts.pay(pay(7, "r1", 11), "0:901").status()).isEqualTo(LuaResult.Status.RETRY);
    }

    @Test
    void aClientCannotPlantAPaidMark_itsRequestIdLivesInItsOwnNamespace() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        assertThat(buy("paid:r1", 8, 1, DURING).code()).isEqualTo("SUCCESS");
        assertThat(scripts.release(new Release(GOODS, 7, 1, 11L, "r1", "cancelled", "rel-11"), pos())
                        .code())
                .as("the planted id is req:paid:r1, not the mark")
                .isEqualTo("RELEASED");
    }

    @Test
    void aRestoreKeepsThePaidMark_soAPaidUnitIsNotReleasedAfterRedisLostItsKeys() {
        open(5, 1);
        buy("r8", 8, 1, DURING);
        redis.redis.del(redis.keys.decisions(GOODS)); // the marks are gone with the keys, as after a Redis loss
        GoodsFold fold = new GoodsFold();
        fold.startAt = START.toEpochMilli();
        fold.endAt = END.toEpochMilli();
        fold.perUserLimit = 1;
        fold.opened = 5;
        fold.stock = 4;
        var holdings = Map.of(8L, new GoodsFold.Holding(1, "r8", 4).markedPaid());
        scripts.restore(
                new Restore(GOODS, "restore-paid"),
                fold,
                holdings,
                pos(),
                scripts.lifetime().expireAt(fold.endAt));
        assertThat(scripts.release(new Release(GOODS, 8, 1, 18L, "r8", "repair", "rel-18"), pos())
                        .code())
                .isEqualTo("PAID");
        assertThat(stockLeft()).isEqualTo(4);
    }

    @Test
    void theScriptsStoreDecisionsInTheFormatStoredDecisionReads() {
        open(2, 1);
        scripts.purchase(new Purchase("fmt", GOODS, 7, 1, DURING), "4:77");
        StoredDecision stored = StoredDecision.parse(redis.redis.hget(redis.keys.decisions(GOODS), "req:fmt"));
        assertThat(stored).isEqualTo(new StoredDecision("SUCCESS", "", 1, "4:77"));
        assertThat(stored.offsetIn(4)).isEqualTo(77);
        assertThat(stored.offsetIn(3)).isEqualTo(-1);
        assertThat(StoredDecision.parse(stored.encode())).isEqualTo(stored);
        assertThat(Assertions.catchThrowable(() -> StoredDecision.parse("SUCCESS|1")))
                .hasMessageContaining("not a stored decision");
    }
}
