package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Lua semantics, straight against a real redis-server. */
class StockScriptsTest {
    static final long GOODS = 1001;
    static final Instant START = Instant.parse("2026-11-29T10:00:00Z");
    static final Instant END = Instant.parse("2026-11-29T11:00:00Z");
    static final Instant DURING = START.plusSeconds(60);

    TestRedis redis;
    StockScripts scripts;
    long offset;

    @BeforeEach void setUp() {
        redis = new TestRedis();
        scripts = redis.scripts();
    }

    @AfterEach void tearDown() { redis.close(); }

    String pos() { return "0:" + (offset++); }

    void open(long stock, int limit) {
        LuaResult r = scripts.openSale(new OpenSale(GOODS, stock, START, END, limit, "open-" + offset, false), pos());
        assertThat(r.code()).isEqualTo("OPENED");
    }

    LuaResult buy(String requestId, long user, int qty, Instant at) {
        return scripts.purchase(new Purchase(requestId, GOODS, user, qty, at), pos());
    }

    long stockLeft() { return Long.parseLong(redis.redis.get(redis.keys.stock(GOODS))); }

    @Test void givenAStoredDecision_whenTheSameCommandIsReplayed_thenTheSameDecisionIsReturnedAsReplay() {
        open(1, 1);
        LuaResult first = scripts.purchase(new Purchase("r1", GOODS, 7, 1, DURING), "3:42");
        LuaResult replay = scripts.purchase(new Purchase("r1", GOODS, 7, 1, DURING), "3:42");
        assertThat(first).isEqualTo(new LuaResult("SUCCESS", "", 0, LuaResult.Status.NEW));
        assertThat(replay).isEqualTo(new LuaResult("SUCCESS", "", 0, LuaResult.Status.REPLAY));
        assertThat(stockLeft()).isZero();
    }

    @Test void givenADecidedRequestId_whenItArrivesAgainAtAnotherOffset_thenNothingChangesAndItIsARetry() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        LuaResult retry = buy("r1", 7, 1, DURING);
        assertThat(retry.status()).isEqualTo(LuaResult.Status.RETRY);
        assertThat(retry.code()).isEqualTo("SUCCESS");
        assertThat(stockLeft()).isEqualTo(4);
    }

    @Test void dedupeComesFirst_aRetryOfADecidedRequestNeverTouchesStockEvenWhenSoldOut() {
        open(1, 1);
        buy("r1", 7, 1, DURING);
        LuaResult other = buy("r2", 8, 1, DURING);
        assertThat(other.code()).isEqualTo("SOLD_OUT");
        assertThat(buy("r1", 7, 1, DURING).code()).as("stored decision wins over the current stock").isEqualTo("SUCCESS");
    }

    @Test void aBuyerWithALivePurchaseIsDuplicate_andTheStockIsUntouched() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        LuaResult again = buy("r2", 7, 1, DURING);
        assertThat(again.code()).isEqualTo("DUPLICATE");
        assertThat(stockLeft()).isEqualTo(4);
    }

    @Test void theDuplicateCheckComesBeforeTheStockCheck() {
        open(1, 1);
        buy("r1", 7, 1, DURING);
        assertThat(buy("r2", 7, 1, DURING).code()).as("already holds one, stock is 0").isEqualTo("DUPLICATE");
    }

    @Test void stockEdgeCases_exactlyZeroAndQuantityAboveStock() {
        open(3, 5);
        assertThat(buy("r1", 1, 3, DURING)).isEqualTo(new LuaResult("SUCCESS", "", 0, LuaResult.Status.NEW));
        assertThat(buy("r2", 2, 1, DURING).code()).isEqualTo("SOLD_OUT");
        assertThat(stockLeft()).isZero();
    }

    @Test void quantityAboveRemainingStockIsSoldOutWithoutPartialDeduct() {
        open(2, 5);
        assertThat(buy("r1", 1, 3, DURING).code()).isEqualTo("SOLD_OUT");
        assertThat(stockLeft()).isEqualTo(2);
        assertThat(buy("r2", 1, 2, DURING).code()).isEqualTo("SUCCESS");
    }

    @Test void theWindowIsJudgedByAcceptedAt_notTheWallClock() {
        open(5, 1);
        assertThat(buy("early", 1, 1, START.minusMillis(1))).isEqualTo(new LuaResult("REJECTED", "not_started", 5, LuaResult.Status.NEW));
        assertThat(buy("first", 2, 1, START).code()).isEqualTo("SUCCESS");
        assertThat(buy("late", 3, 1, END).detail()).isEqualTo("ended");
        assertThat(buy("last", 4, 1, END.minusMillis(1)).code()).isEqualTo("SUCCESS");
    }

    @Test void noSaleAndOverLimitAreRejectedWithTheirReason() {
        assertThat(buy("nosale", 1, 1, DURING)).isEqualTo(new LuaResult("REJECTED", "no_sale", 0, LuaResult.Status.NEW));
        assertThat(redis.redis.pttl(redis.keys.decisions(GOODS))).as("decisions of a goods without sale expire").isPositive();
        open(5, 2);
        assertThat(buy("big", 1, 3, DURING).detail()).isEqualTo("over_limit");
        assertThat(buy("ok", 1, 2, DURING).code()).isEqualTo("SUCCESS");
        assertThat(stockLeft()).isEqualTo(3);
    }

    @Test void anInvalidPurchaseIsStoredAsRejectedInvalid() {
        open(5, 1);
        assertThat(scripts.invalidPurchase("bad", GOODS, 0, 0, null, "0:99").detail()).isEqualTo("invalid");
        assertThat(scripts.invalidPurchase("bad", GOODS, 0, 0, null, "0:100").status()).isEqualTo(LuaResult.Status.RETRY);
    }

    @Test void releaseGivesBackWhatTheBuyerHolds_andFreesTheBuyer() {
        open(5, 3);
        buy("r1", 7, 2, DURING);
        LuaResult rel = scripts.release(new Release(GOODS, 7, 2, 11L, "r1", "payment_timeout", "rel-11"), pos());
        assertThat(rel).isEqualTo(new LuaResult("RELEASED", "2", 5, LuaResult.Status.NEW));
        assertThat(buy("r2", 7, 1, DURING).code()).as("a released buyer may buy again").isEqualTo("SUCCESS");
    }

    @Test void releaseIsIdempotentByOpId() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        scripts.release(new Release(GOODS, 7, 1, 11L, "r1", "payment_timeout", "rel-11"), pos());
        LuaResult again = scripts.release(new Release(GOODS, 7, 1, 11L, "r1", "payment_timeout", "rel-11"), pos());
        assertThat(again.status()).isEqualTo(LuaResult.Status.RETRY);
        assertThat(stockLeft()).isEqualTo(5);
    }

    @Test void releaseOfANonHolderIsANoOp() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        LuaResult stranger = scripts.release(new Release(GOODS, 8, 1, null, null, "repair", "rel-x"), pos());
        assertThat(stranger.code()).isEqualTo("NOOP");
        LuaResult otherRequest = scripts.release(new Release(GOODS, 7, 1, null, "r-other", "repair", "rel-y"), pos());
        assertThat(otherRequest.code()).as("names a request the buyer does not hold").isEqualTo("NOOP");
        assertThat(stockLeft()).isEqualTo(4);
    }

    @Test void openSaleRefusesResidualKeysUnlessForced() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        LuaResult refused = scripts.openSale(new OpenSale(GOODS, 10, START, END, 1, "reopen", false), pos());
        assertThat(refused.code()).isEqualTo("REFUSED");
        assertThat(stockLeft()).isEqualTo(4);
        LuaResult forced = scripts.openSale(new OpenSale(GOODS, 10, START, END, 1, "reopen-forced", true), pos());
        assertThat(forced).isEqualTo(new LuaResult("OPENED", "6", 10, LuaResult.Status.NEW));
        assertThat(redis.redis.pttl(redis.keys.stock(GOODS))).as("keys expire after the sale").isPositive();
    }

    @Test void closeSaleEndsTheSaleForLaterCommands() {
        open(5, 1);
        assertThat(scripts.closeSale(new CloseSale(GOODS, "close-1"), pos()).code()).isEqualTo("CLOSED");
        assertThat(buy("r1", 7, 1, DURING).detail()).isEqualTo("ended");
    }

    @Test void restoreReplacesTheGoodsStateAndIsIdempotentByOpId() {
        open(5, 1);
        buy("r1", 7, 1, DURING);
        dev.seckill.stock.ledger.GoodsFold fold = new dev.seckill.stock.ledger.GoodsFold();
        fold.startAt = START.toEpochMilli();
        fold.endAt = END.toEpochMilli();
        fold.perUserLimit = 1;
        fold.opened = 5;
        fold.stock = 3;
        var holdings = java.util.Map.of(8L, new dev.seckill.stock.ledger.GoodsFold.Holding(2, "r8", 3));
        var restore = new dev.seckill.contracts.command.Restore(GOODS, "restore-1");
        assertThat(scripts.restore(restore, fold, holdings, "0:50")).isEqualTo(new LuaResult("RESTORED", "1", 3, LuaResult.Status.NEW));
        assertThat(scripts.restore(restore, fold, holdings, "0:50").status()).isEqualTo(LuaResult.Status.REPLAY);
        assertThat(scripts.restore(restore, fold, holdings, "0:51").status()).isEqualTo(LuaResult.Status.RETRY);
        assertThat(stockLeft()).isEqualTo(3);
        assertThat(buy("r8", 8, 2, DURING).status()).as("the restored holder's request keeps a stored SUCCESS").isEqualTo(LuaResult.Status.RETRY);
        assertThat(buy("r7b", 7, 1, DURING).code()).as("user 7 is not in the fold: free to buy").isEqualTo("SUCCESS");
    }
}
