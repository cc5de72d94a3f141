package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.stock.ledger.GoodsFold;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.params.ScanParams;

/**
 * What the scripts themselves guarantee, straight against the machine's real Redis with explicit markers ({@link
 * KeysAt}): the marker check (a call finding another marker answers STALE and touches nothing), the marker each call
 * leaves, the keys' lifetimes, what {@code restore.lua} writes, and that only {@code pay.lua} writes paid marks. The
 * sale rules as the stream decides them (dedupe and reused ids are the fold's) are {@link SaleRulesTest}'s.
 */
class StockScriptsTest extends TestRedisCase {
    static final long GOODS = 1001;

    StockScripts scripts;
    long offset;
    /** Where the calls made so far left the goods' keys ("" = no keys). */
    String marker = "";

    @BeforeEach
    void scripts() {
        scripts = redis.scripts();
    }

    Instant end() {
        return start.plus(Duration.ofHours(1));
    }

    Instant during() {
        return start.plusSeconds(5);
    }

    /** A call at the next offset expecting the keys where the calls before it left them; checks the marker it leaves. */
    LuaResult next(Function<KeysAt, LuaResult> call, boolean opens) {
        KeysAt at = new KeysAt(marker, Long.toString(offset++));
        LuaResult r = call.apply(at);
        assertThat(r.status()).as("decided: %s", r).isEqualTo(LuaResult.Status.NEW);
        marker = at.leaves(opens);
        assertThat(markerInRedis()).as("the marker the call left").isEqualTo(marker);
        return r;
    }

    LuaResult next(Function<KeysAt, LuaResult> call) {
        return next(call, false);
    }

    String markerInRedis() {
        return Objects.requireNonNullElse(redis.redis.hget(redis.keys.sale(GOODS), "at"), "");
    }

    LuaResult open(StockScripts with, long stock, Instant from, Instant to, int limit, boolean force) {
        return next(
                at -> BlockingScripts.openSale(
                        with, new OpenSale(GOODS, stock, from, to, limit, "open-" + offset, force), at),
                true);
    }

    void open(long stock, int limit) {
        assertThat(open(scripts, stock, start, end(), limit, false).code()).isEqualTo("OPENED");
    }

    LuaResult buy(StockScripts with, String requestId, long user, Instant at) {
        return next(k -> BlockingScripts.purchase(with, new Purchase(requestId, GOODS, user, 1, at), k));
    }

    LuaResult buy(String requestId, long user) {
        return buy(scripts, requestId, user, during());
    }

    LuaResult release(StockScripts with, long user, String requestId) {
        return next(k -> BlockingScripts.release(
                with, new Release(GOODS, user, 1, null, requestId, "repair", "rel-" + user), k));
    }

    LuaResult release(long user, String requestId) {
        return release(scripts, user, requestId);
    }

    LuaResult pay(StockScripts with, long user, String requestId) {
        return next(
                k -> BlockingScripts.pay(with, new Pay(GOODS, user, requestId, 11L, "psp-11", "pay-" + requestId), k));
    }

    LuaResult close() {
        return next(k -> BlockingScripts.closeSale(scripts, new CloseSale(GOODS, "close"), k));
    }

    /** Every key of the goods as Redis holds it: its DUMP and its absolute expiry (-2: no such key). */
    Map<String, String> state() {
        Map<String, String> s = new LinkedHashMap<>();
        for (String key : redis.keys.goodsKeys(GOODS)) {
            byte[] dump = redis.redis.dump(key);
            s.put(key, dump == null ? "-" : HexFormat.of().formatHex(dump) + "@" + redis.redis.pexpireTime(key));
        }
        return s;
    }

    /** Every call of every script, made at {@code at}. */
    List<ScriptCall> everyScript(KeysAt at) {
        Purchase p = new Purchase("rx", GOODS, 9, 1, during());
        return List.of(
                scripts.purchaseCall(p, at),
                scripts.invalidPurchaseCall("bad", GOODS, 9, 0, during(), at),
                scripts.releaseCall(new Release(GOODS, 8, 1, null, "r8", "repair", "rel-x"), at),
                scripts.payCall(new Pay(GOODS, 8, "r8", 12L, "psp-12", "pay-x"), at),
                scripts.openSaleCall(new OpenSale(GOODS, 9, start, end(), 1, "open-x", true), at, end().toEpochMilli()),
                scripts.closeSaleCall(new CloseSale(GOODS, "close-x"), at));
    }

    @Test
    void givenKeysAtAnotherMarker_whenAnyScriptIsCalled_thenItAnswersStaleAndLeavesEveryKeyUntouched() {
        open(5, 1);
        buy("r7", 7);
        pay(scripts, 7, "r7");
        buy("r8", 8);
        Map<String, String> before = state();
        assertThat(before.values()).as("all five keys exist").doesNotContain("-");

        for (KeysAt wrong : List.of(new KeysAt("999", "1000"), new KeysAt("", "1001"))) {
            List<ScriptCall> calls = new ArrayList<>(everyScript(wrong));
            for (ScriptCall c : calls) {
                assertThat(scripts.call(c)).as(c.script().name()).isEqualTo(stale(marker));
            }
            calls.add(scripts.purchaseCall(new Purchase("ry", GOODS, 10, 1, during()), wrong));
            assertThat(ScriptRunner.segments(calls, 0))
                    .as("the batch script too")
                    .hasSizeLessThan(calls.size());
            assertThat(scripts.callAll(calls)).containsOnly(stale(marker));
        }

        assertThat(state()).isEqualTo(before);
    }

    static LuaResult stale(String found) {
        return new LuaResult("STALE", found, 0, LuaResult.Status.STALE);
    }

    @Test
    void givenNoKeys_whenACallExpectsASale_thenItAnswersStaleWithNoMarkerAndWritesNothing() {
        for (ScriptCall c : everyScript(new KeysAt("5", "6"))) {
            assertThat(scripts.call(c)).as(c.script().name()).isEqualTo(stale(""));
        }
        assertThat(keysOfThisTest()).isEmpty();
    }

    @Test
    void givenNoSale_whenCallsExpectNoKeys_thenTheyAnswerWithoutWritingAnyKey() {
        assertThat(buy("nosale", 1)).isEqualTo(new LuaResult("REJECTED", "no_sale", 0, LuaResult.Status.NEW));
        assertThat(next(k -> scripts.call(scripts.invalidPurchaseCall("bad", GOODS, 1, 0, null, k)))
                        .detail())
                .isEqualTo("invalid");
        assertThat(release(7, null).code()).isEqualTo("NOOP");
        assertThat(pay(scripts, 7, "r7").code()).isEqualTo("REFUSED");
        assertThat(close().code()).isEqualTo("NOOP");
        assertThat(keysOfThisTest()).as("no decision, no marker: nothing").isEmpty();
    }

    @Test
    void everyCallThatFindsASaleLeavesItsOffsetAsTheMarker_refusalsAndNoOpsIncluded() {
        open(2, 1);
        assertThat(markerInRedis()).isEqualTo("0");
        // each call checks the marker it leaves (next): a refusal moves it as a decision does
        assertThat(next(k -> BlockingScripts.purchase(scripts, new Purchase("big", GOODS, 1, 2, during()), k))
                        .detail())
                .isEqualTo("over_limit");
        assertThat(buy("early", 1, start.minusMillis(1)).detail()).isEqualTo("not_started");
        assertThat(next(k -> scripts.call(scripts.invalidPurchaseCall("bad", GOODS, 1, 0, null, k)))
                        .detail())
                .isEqualTo("invalid");
        assertThat(buy("r1", 1).code()).isEqualTo("SUCCESS");
        assertThat(buy("r1b", 1).code()).isEqualTo("DUPLICATE");
        assertThat(release(2, null).code()).isEqualTo("NOOP");
        assertThat(pay(scripts, 2, "r2").code()).isEqualTo("REFUSED");
        assertThat(open(scripts, 9, start, end(), 1, false).code()).isEqualTo("REFUSED");
        assertThat(close().code()).isEqualTo("CLOSED");
        assertThat(markerInRedis()).isEqualTo(Long.toString(offset - 1));
        assertThat(redis.redis.get(redis.keys.stock(GOODS))).isEqualTo("1");
    }

    LuaResult buy(String requestId, long user, Instant at) {
        return buy(scripts, requestId, user, at);
    }

    /** Every key under this test's own prefix (SCAN in pages: a KEYS over a big shared Redis would block it). */
    List<String> keysOfThisTest() {
        return keysOf(redis);
    }

    static List<String> keysOf(TestRedis redis) {
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
        Instant from = start.minus(Duration.ofDays(3)), to = from.plus(Duration.ofHours(1));
        assertThat(open(scripts, 2, from, to, 1, false).code())
                .as("keys written now live from now, not from the recorded end")
                .isEqualTo("OPENED");
        assertThat(buy("then-1", 1, from.plusSeconds(5)).code()).isEqualTo("SUCCESS");
        assertThat(buy("then-2", 1, from.plusSeconds(6)).code()).isEqualTo("DUPLICATE");
        assertThat(buy("late", 2, to).detail())
                .as("judged by acceptedAt as recorded")
                .isEqualTo("ended");
        assertThat(buy("then-3", 3, to.minusMillis(1)))
                .isEqualTo(new LuaResult("SUCCESS", "", 0, LuaResult.Status.NEW));
        assertThat(pay(scripts, 3, "then-3").code()).isEqualTo("PAID");
        long grace = KeyLifetime.DEFAULT_GRACE.toMillis();
        assertThat(ttls())
                .as("all five keys: sale, stock, buyers, holders, paid marks")
                .allSatisfy(ttl -> assertThat(ttl).isBetween(grace - 60_000, grace));
    }

    @Test
    void everyKeyGetsItsLifetimeWhenItIsCreated_buyersHoldersAndPaidMarksIncluded_evenAfterTheLastBuyerLeft() {
        open(5, 1);
        assertThat(ttls().subList(2, 5))
                .as("no buyers yet: the hashes do not exist")
                .containsOnly(-2L);
        buy("r1", 7);
        release(7, "r1");
        assertThat(ttls().subList(2, 4))
                .as("the last buyer left: the hashes are gone")
                .containsOnly(-2L);
        buy("r2", 8);
        pay(scripts, 8, "r2");
        long expected = end().toEpochMilli() + KeyLifetime.DEFAULT_GRACE.toMillis() - System.currentTimeMillis();
        assertThat(ttls()).allSatisfy(ttl -> assertThat(ttl).isBetween(expected - 60_000, expected));
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
        Instant from = clock.instant().minusSeconds(1), to = from.plusSeconds(2);
        open(shortLived, 3, from, to, 1, false);
        assertThat(buy(shortLived, "s1", 1, from.plusMillis(10)).code()).isEqualTo("SUCCESS");
        assertThat(pay(shortLived, 1, "s1").code()).isEqualTo("PAID");
        buy(shortLived, "s2", 2, from.plusMillis(20));
        release(shortLived, 2, "s2");
        buy(shortLived, "s3", 3, from.plusMillis(30));
        assertThat(ttls())
                .as("while it lives, every key has an expiry")
                .allSatisfy(ttl -> assertThat(ttl).isPositive());
        await().atMost(Duration.ofSeconds(10)).until(() -> ttls().stream().allMatch(ttl -> ttl == -2L));
        assertThat(keysOfThisTest()).as("no key of the sale outlives it").isEmpty();
    }

    @Test
    void aStreamWhoseClockIsBehindRedis_writesKeysThatLiveOnRedisClock_notKeysThatVanishAsTheyAreWritten() {
        // the stream's clock two days behind Redis's: its expiry (a minute after the sale's end, by its clock) is in
        // Redis's past; judged on Redis's clock, the keys still live long enough for the calls that follow
        Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofDays(-2));
        StockScripts skewed = new StockScripts(
                redis.redis,
                redis.keys,
                new SimpleMeterRegistry(),
                3,
                Duration.ofMillis(10),
                new KeyLifetime(Duration.ofMinutes(1), behind));
        Instant from = behind.instant().minusSeconds(1), to = from.plusSeconds(2);
        open(skewed, 3, from, to, 1, false);
        assertThat(buy(skewed, "k1", 1, from.plusMillis(10)).code())
                .as("the keys the open wrote are there for the purchase after it")
                .isEqualTo("SUCCESS");
        assertThat(ttls().subList(0, 4))
                .as("sale, stock, buyers, holders: alive, at most the floor of 5 s by Redis's clock")
                .allSatisfy(ttl -> assertThat(ttl).isBetween(1L, 5_000L));
    }

    GoodsFold fold(long opened, long stock) {
        GoodsFold fold = new GoodsFold();
        fold.startAt = start.toEpochMilli();
        fold.endAt = end().toEpochMilli();
        fold.perUserLimit = 2;
        fold.opened = opened;
        fold.stock = stock;
        return fold;
    }

    @Test
    void aRestoreMakesEveryKeyWhatTheFoldSays_atTheMarkerItIsGiven_andTheRulesGoOnFromThere() {
        open(5, 1);
        buy("r7", 7);
        long expireAt = scripts.lifetime().expireAt(end().toEpochMilli());
        var holdings = new LinkedHashMap<Long, GoodsFold.Holding>();
        holdings.put(8L, new GoodsFold.Holding(2, "r8", 3));
        holdings.put(9L, new GoodsFold.Holding(1, "r9", 2).markedPaid());

        assertThat(scripts.restore(GOODS, "50", fold(6, 2), holdings, expireAt))
                .isEqualTo(new LuaResult("RESTORED", "2", 2, LuaResult.Status.NEW));

        assertThat(redis.redis.hgetAll(redis.keys.sale(GOODS)))
                .containsEntry("at", "50")
                .containsEntry("perUserLimit", "2")
                .containsEntry("opened", "6")
                .containsEntry("status", "open");
        assertThat(redis.redis.get(redis.keys.stock(GOODS))).isEqualTo("2");
        assertThat(redis.redis.hgetAll(redis.keys.buyers(GOODS))).isEqualTo(Map.of("8", "2", "9", "1"));
        assertThat(redis.redis.hgetAll(redis.keys.holders(GOODS))).isEqualTo(Map.of("8", "r8", "9", "r9"));
        assertThat(redis.redis.hkeys(redis.keys.paidMarks(GOODS)))
                .as("the paid mark kept")
                .containsOnly("r9");
        assertThat(redis.keys.goodsKeys(GOODS))
                .allSatisfy(k -> assertThat(redis.redis.pexpireTime(k)).isEqualTo(expireAt));
        marker = "50";
        assertThat(buy("r7b", 7).code())
                .as("user 7 is not in the fold: free to buy")
                .isEqualTo("SUCCESS");
        assertThat(buy("r8b", 8).code()).isEqualTo("DUPLICATE");
        assertThat(release(9, null)).isEqualTo(new LuaResult("PAID", "0", 1, LuaResult.Status.NEW));
        assertThat(release(8, "r8")).isEqualTo(new LuaResult("RELEASED", "2", 3, LuaResult.Status.NEW));
    }

    @Test
    void aRestoreKeepsThePaidMark_soAPaidUnitIsNotReleasedAfterRedisLostItsKeys() {
        open(5, 1);
        buy("r8", 8);
        assertThat(pay(scripts, 8, "r8")).isEqualTo(new LuaResult("PAID", "1", 4, LuaResult.Status.NEW));
        RedisSnapshot.wipe(redis, GOODS); // the marks are gone with the keys, as after a Redis loss

        marker = "restored-at";
        scripts.restore(
                GOODS,
                marker,
                fold(5, 4),
                Map.of(8L, new GoodsFold.Holding(1, "r8", 4).markedPaid()),
                scripts.lifetime().expireAt(end().toEpochMilli()));

        assertThat(release(8, "r8").code()).isEqualTo("PAID");
        assertThat(release(8, null).code()).as("whatever the release names").isEqualTo("PAID");
        assertThat(redis.redis.get(redis.keys.stock(GOODS))).isEqualTo("4");
    }

    @Test
    void aRestoreWithoutAMarkerDeletesEveryKeyOfTheGoods() {
        open(5, 1);
        buy("r8", 8);
        pay(scripts, 8, "r8");

        assertThat(scripts.restore(GOODS, "", null, Map.of(), 0).code()).isEqualTo("RESTORED");

        assertThat(keysOfThisTest()).isEmpty();
    }

    @Test
    void onlyAPayWritesAPaidMark_aRequestIdShapedLikeAMarkPlantsNothing() {
        open(5, 1);
        buy("r1", 7);
        assertThat(buy("paid:r1", 8).code()).isEqualTo("SUCCESS");
        assertThat(buy("restored", 9).code()).isEqualTo("SUCCESS");
        assertThat(redis.redis.exists(redis.keys.paidMarks(GOODS)))
                .as("no paid mark yet")
                .isFalse();

        assertThat(release(7, "r1")).isEqualTo(new LuaResult("RELEASED", "1", 3, LuaResult.Status.NEW));
        assertThat(pay(scripts, 8, "paid:r1").code()).isEqualTo("PAID");
        assertThat(redis.redis.hgetAll(redis.keys.paidMarks(GOODS)))
                .as("requestId -> the pay's opId")
                .isEqualTo(Map.of("paid:r1", "pay-paid:r1"));
    }
}
