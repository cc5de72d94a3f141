package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * The batch script against the machine's real Redis: a run of purchases of one goods sent as one call of {@code
 * purchase_batch} decides exactly what {@code purchase.lua} decides called once per purchase — every outcome, reason,
 * stock after and status, in order, with a release in between — with the markers chained (each call expects the offset
 * of the one before it), and leaves the same keys. A call whose marker is not the keys' answers STALE inside a batch as
 * alone, and the calls after it go on.
 */
class PurchaseBatchTest extends TestRedisCase {
    static final long ONE_BY_ONE = 2001;
    static final long BATCHED = 2002;

    Instant during() {
        return start.plusSeconds(5);
    }

    /** Markers chained from the open at offset 0: call i expects what call i-1 left, its offset. */
    static final class Chain {
        String marker = "0";
        long offset = 1;

        KeysAt next() {
            KeysAt at = new KeysAt(marker, Long.toString(offset++));
            marker = at.next();
            return at;
        }
    }

    /**
     * The sale's life as calls: buyers, a repeat buyer, a too-large quantity, an invalid command, one before the
     * window, a call at a marker the keys have left (STALE), a release, sold out.
     */
    List<ScriptCall> sale(StockScripts scripts, long goods) {
        LongFunction<Purchase> buyer = u -> new Purchase("r" + u, goods, u, 1, during());
        Chain chain = new Chain();
        List<ScriptCall> calls = new ArrayList<>();
        calls.add(scripts.purchaseCall(buyer.apply(1), chain.next()));
        calls.add(scripts.purchaseCall(buyer.apply(2), chain.next()));
        calls.add(scripts.purchaseCall(new Purchase("r1-again", goods, 1, 1, during()), chain.next())); // DUPLICATE
        calls.add(scripts.purchaseCall(new Purchase("r-big", goods, 3, 5, during()), chain.next())); // over the limit
        calls.add(scripts.invalidPurchaseCall("r-bad", goods, 4, 0, during(), chain.next()));
        calls.add(scripts.purchaseCall(new Purchase("r-early", goods, 4, 1, start.minusMillis(1)), chain.next()));
        calls.add(scripts.purchaseCall(buyer.apply(2), new KeysAt("1", "2"))); // a replayed call: the keys moved on
        calls.add(scripts.purchaseCall(buyer.apply(3), chain.next()));
        calls.add(scripts.releaseCall(new Release(goods, 1, 1, null, "r1", "cancelled", "rel-1"), chain.next()));
        for (long u = 5; u <= 9; u++) calls.add(scripts.purchaseCall(buyer.apply(u), chain.next()));
        return calls;
    }

    @Test
    void aBatchDecidesExactlyWhatThePurchasesDecideOneByOne_markersChained() {
        StockScripts scripts = redis.scripts();
        for (long goods : new long[] {ONE_BY_ONE, BATCHED}) {
            OpenSale open = new OpenSale(goods, 3, start, start.plus(Duration.ofHours(1)), 1, "open", false);
            assertThat(BlockingScripts.openSale(scripts, open, new KeysAt("", "0"))
                            .code())
                    .isEqualTo("OPENED");
        }
        List<LuaResult> oneByOne = new ArrayList<>();
        for (ScriptCall c : sale(scripts, ONE_BY_ONE)) oneByOne.add(scripts.call(c));
        List<ScriptCall> batched = sale(scripts, BATCHED);

        List<LuaResult> results = scripts.callAll(batched);

        assertThat(ScriptRunner.segments(batched, 0))
                .extracting(s -> s[1] - s[0])
                .containsExactly(8, 1, 5);
        assertThat(results).isEqualTo(oneByOne);
        assertThat(oneByOne)
                .extracting(r -> r.code() + "/" + r.detail() + "/" + r.stockAfter())
                .containsExactly(
                        "SUCCESS//2",
                        "SUCCESS//1",
                        "DUPLICATE//1",
                        "REJECTED/over_limit/1",
                        "REJECTED/invalid/1",
                        "REJECTED/not_started/1",
                        "STALE/6/0",
                        "SUCCESS//0",
                        "RELEASED/1/1",
                        "SUCCESS//0",
                        "SOLD_OUT//0",
                        "SOLD_OUT//0",
                        "SOLD_OUT//0",
                        "SOLD_OUT//0");
        assertThat(oneByOne).filteredOn(LuaResult::stale).hasSize(1);
        for (var key : List.<LongFunction<String>>of(redis.keys::stock)) {
            assertThat(redis.redis.get(key.apply(BATCHED))).isEqualTo(redis.redis.get(key.apply(ONE_BY_ONE)));
        }
        for (var hash : List.<LongFunction<String>>of(redis.keys::sale, redis.keys::buyers, redis.keys::holders)) {
            assertThat(redis.redis.hgetAll(hash.apply(BATCHED))).isEqualTo(redis.redis.hgetAll(hash.apply(ONE_BY_ONE)));
        }
        assertThat(redis.redis.hget(redis.keys.sale(BATCHED), "at")).isEqualTo("13");
    }

    /** The same commands through the decider: in one batch (one pipeline, purchases as batch calls) or one by one. */
    List<Command> commands(Deciding x) {
        return List.of(
                x.buy("r1", 1, during()),
                x.buy("r2", 2, during()),
                x.buy("r1-again", 1, during()),
                new Purchase("r-big", x.goods, 3, 5, during()),
                new Purchase("r-bad", x.goods, 4, 0, during()), // invalid
                x.buy("r3", 3, during()),
                x.buy("r4", 4, during()),
                x.release(1, "r1", "rel-1"),
                x.buy("r5", 5, during()),
                x.pay(2, "r2", "pay-2"),
                x.release(2, "r2", "rel-2"), // paid: refused
                x.buy("r6", 6, during()),
                x.buy("r2", 2, during()), // a retry: nothing
                x.close("close"),
                x.buy("r7", 7, during()));
    }

    static String view(Decision x) {
        if (x.hasOutcome())
            return x.outcome().outcome() + "/" + x.outcome().reason() + "/"
                    + x.outcome().stockAfter();
        if (x.hasLedger())
            return x.ledger().type() + "/" + x.ledger().quantity() + "/"
                    + x.ledger().stockAfter();
        return x.toDlq() ? "DLQ" : "NOTHING";
    }

    @Test
    void theDeciderDecidesABatchExactlyAsTheSameCommandsOneByOne() {
        Deciding batched = new Deciding(redis, BATCHED, true), oneByOne = new Deciding(redis, ONE_BY_ONE, true);
        for (Deciding x : List.of(batched, oneByOne)) x.one(x.open(3, start, 1, "open"));

        List<String> inOneBatch = batched.batch(commands(batched).toArray(Command[]::new)).stream()
                .map(PurchaseBatchTest::view)
                .toList();
        List<String> each =
                commands(oneByOne).stream().map(c -> view(oneByOne.one(c))).toList();

        assertThat(inOneBatch)
                .containsExactly(
                        "SUCCESS/null/2",
                        "SUCCESS/null/1",
                        "DUPLICATE/null/1",
                        "REJECTED/over_limit/1",
                        "REJECTED/invalid/1",
                        "SUCCESS/null/0",
                        "SOLD_OUT/null/0",
                        "RELEASED/1/1",
                        "SUCCESS/null/0",
                        "PAID/0/0",
                        "DLQ",
                        "SOLD_OUT/null/0",
                        "NOTHING",
                        "CLOSED/0/0",
                        "REJECTED/ended/0")
                .isEqualTo(each);
        assertThat(batched.redisStock()).isEqualTo("0").isEqualTo(oneByOne.redisStock());
        assertThat(batched.folds.holdings(BATCHED)).isEqualTo(oneByOne.folds.holdings(ONE_BY_ONE));
    }

    @Test
    void aLongRunIsCutIntoBatchesOfAtMostTheLimitAndOtherGoodsOrScriptsEndARun() {
        StockScripts scripts = redis.scripts();
        List<ScriptCall> calls = new ArrayList<>();
        for (int i = 0; i < ScriptRunner.MAX_BATCH + 3; i++)
            calls.add(scripts.purchaseCall(new Purchase("r" + i, 1, i, 1, during()), KeysAt.unchained(i)));
        calls.add(scripts.purchaseCall(new Purchase("x", 2, 1, 1, during()), KeysAt.unchained(0)));
        calls.add(scripts.releaseCall(new Release(1, 1, 1, null, null, "repair", "rel"), KeysAt.unchained(98)));
        calls.add(scripts.purchaseCall(new Purchase("y", 1, 1, 1, during()), KeysAt.unchained(99)));

        assertThat(ScriptRunner.segments(calls, 0))
                .extracting(s -> s[1] - s[0])
                .containsExactly(ScriptRunner.MAX_BATCH, 3, 1, 1, 1);
        assertThat(ScriptRunner.segments(calls, 60)).extracting(s -> s[0]).containsExactly(60, 67, 68, 69);
    }

    @Test
    void whileRedisDecidesABatch_theCallerRunsItsOwnWork_andGetsTheSameAnswers() throws Exception {
        StockScripts scripts = redis.scripts();
        for (long goods : new long[] {ONE_BY_ONE, BATCHED}) {
            OpenSale open = new OpenSale(goods, 3, start, start.plus(Duration.ofHours(1)), 1, "open", false);
            BlockingScripts.openSale(scripts, open, new KeysAt("", "0"));
        }
        List<LuaResult> alone = scripts.callAll(sale(scripts, ONE_BY_ONE));
        Thread caller = Thread.currentThread();
        List<Thread> ranOn = new ArrayList<>();

        List<LuaResult> overlapped = scripts.callAll(sale(scripts, BATCHED), () -> ranOn.add(Thread.currentThread()));

        assertThat(ranOn).containsExactly(caller);
        assertThat(overlapped).isEqualTo(alone);
    }

    @Test
    void whenTheCallersWorkFails_theBatchIsStillWaitedFor_andTheCallersFailureIsTheOneThrown() {
        StockScripts scripts = redis.scripts();
        OpenSale open = new OpenSale(BATCHED, 3, start, start.plus(Duration.ofHours(1)), 1, "open", false);
        BlockingScripts.openSale(scripts, open, new KeysAt("", "0"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> scripts.callAll(sale(scripts, BATCHED), () -> {
                    throw new IllegalStateException("forwarding failed");
                }))
                .hasMessage("forwarding failed");

        // the whole batch ran before the failure was thrown: the keys carry its last call's marker
        assertThat(redis.redis.hget(redis.keys.sale(BATCHED), "at")).isEqualTo("13");
    }

    @Test
    void theDecidersWorkWhileWaiting_runsOnceForEveryBatch_withARoundTripOrWithout() {
        Deciding x = new Deciding(redis, BATCHED, true);
        x.one(x.open(1, start, 1, "open"));
        List<String> ran = new ArrayList<>();

        x.batchWhileWaiting(() -> ran.add("with Lua"), x.buy("r1", 1, during()), x.buy("r2", 2, during()));
        // sold out: the gate answers from the fold, no round trip
        List<Decision> gated = x.batchWhileWaiting(() -> ran.add("gated"), x.buy("r3", 3, during()));

        assertThat(ran).containsExactly("with Lua", "gated");
        assertThat(gated).extracting(PurchaseBatchTest::view).containsExactly("SOLD_OUT/null/0");
    }
}
