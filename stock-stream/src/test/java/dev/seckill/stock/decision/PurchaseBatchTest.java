package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The batch script against a real Redis: a run of purchases of one goods sent as one call of {@code purchase_batch}
 * decides exactly what {@code purchase.lua} decides called once per purchase — every outcome, reason, stock after and
 * status (NEW, REPLAY, RETRY), in order, with a release in between — and leaves the same stock.
 */
class PurchaseBatchTest {
    static final long ONE_BY_ONE = 2001;
    static final long BATCHED = 2002;
    static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(10));
    static final Instant DURING = START.plusSeconds(60);

    final TestRedis redis = new TestRedis();
    final StockScripts scripts = redis.scripts();

    @AfterEach
    void tearDown() {
        redis.close();
    }

    /** The sale's life as calls: buyers, a repeat buyer, a too-large quantity, an invalid command, a replay, a retry, a release, sold out. */
    List<ScriptCall> sale(long goods) {
        LongFunction<Purchase> buyer = u -> new Purchase("r" + u, goods, u, 1, DURING);
        List<ScriptCall> calls = new ArrayList<>();
        calls.add(scripts.purchaseCall(buyer.apply(1), "0:1"));
        calls.add(scripts.purchaseCall(buyer.apply(2), "0:2"));
        calls.add(scripts.purchaseCall(new Purchase("r1-again", goods, 1, 1, DURING), "0:3")); // DUPLICATE
        calls.add(scripts.purchaseCall(new Purchase("r-big", goods, 3, 5, DURING), "0:4")); // over the limit
        calls.add(scripts.invalidPurchaseCall("r-bad", goods, 4, 1, DURING, "0:5"));
        calls.add(scripts.purchaseCall(buyer.apply(2), "0:2")); // the same command again: REPLAY
        calls.add(scripts.purchaseCall(buyer.apply(2), "0:6")); // the same requestId elsewhere: RETRY
        calls.add(scripts.releaseCall(new Release(goods, 1, 1, null, "r1", "cancelled", "rel-1"), "0:7"));
        for (long u = 5; u <= 9; u++) calls.add(scripts.purchaseCall(buyer.apply(u), "0:" + (u + 3)));
        return calls;
    }

    @Test
    void aBatchDecidesExactlyWhatThePurchasesDecideOneByOne() {
        for (long goods : new long[] {ONE_BY_ONE, BATCHED}) {
            assertThat(scripts.openSale(
                                    new OpenSale(goods, 3, START, START.plus(Duration.ofHours(1)), 1, "open", false),
                                    "0:0")
                            .code())
                    .isEqualTo("OPENED");
        }
        List<LuaResult> oneByOne = new ArrayList<>();
        for (ScriptCall c : sale(ONE_BY_ONE)) oneByOne.add(scripts.call(c));
        List<ScriptCall> batched = sale(BATCHED);

        List<LuaResult> results = scripts.callAll(batched);

        assertThat(ScriptRunner.segments(batched, 0))
                .extracting(s -> s[1] - s[0])
                .containsExactly(7, 1, 5);
        assertThat(results).isEqualTo(oneByOne);
        assertThat(oneByOne)
                .extracting(LuaResult::code)
                .containsExactly(
                        "SUCCESS",
                        "SUCCESS",
                        "DUPLICATE",
                        "REJECTED",
                        "REJECTED",
                        "SUCCESS",
                        "SUCCESS",
                        "RELEASED",
                        "SUCCESS",
                        "SUCCESS",
                        "SOLD_OUT",
                        "SOLD_OUT",
                        "SOLD_OUT");
        assertThat(oneByOne.get(5).status()).isEqualTo(LuaResult.Status.REPLAY);
        assertThat(oneByOne.get(6).status()).isEqualTo(LuaResult.Status.RETRY);
        assertThat(redis.redis.get(redis.keys.stock(BATCHED))).isEqualTo(redis.redis.get(redis.keys.stock(ONE_BY_ONE)));
    }

    @Test
    void aLongRunIsCutIntoBatchesOfAtMostTheLimitAndOtherGoodsOrScriptsEndARun() {
        List<ScriptCall> calls = new ArrayList<>();
        for (int i = 0; i < ScriptRunner.MAX_BATCH + 3; i++)
            calls.add(scripts.purchaseCall(new Purchase("r" + i, 1, i, 1, DURING), "0:" + i));
        calls.add(scripts.purchaseCall(new Purchase("x", 2, 1, 1, DURING), "1:0"));
        calls.add(scripts.purchaseCall(new Purchase("y", 1, 1, 1, DURING), "0:99"));

        assertThat(ScriptRunner.segments(calls, 0))
                .extracting(s -> s[1] - s[0])
                .containsExactly(ScriptRunner.MAX_BATCH, 3, 1, 1);
        assertThat(ScriptRunner.segments(calls, 60)).extracting(s -> s[0]).containsExactly(60, 67, 68);
    }
}
