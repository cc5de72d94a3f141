package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.ledger.FoldStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ListAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sale's rules as the stream decides them ({@link Deciding}: a {@link Decider} over the machine's real Redis and a
 * fold that commits): the window by acceptedAt, the limit, a live buyer before the stock, no partial deduct, release,
 * pay, close, open, restore; and what the fold's decisions add (docs/invariants.md, "The fold is the truth"): a record
 * decided again answers as before, a retry of a decided id at another offset emits nothing, an id reused for another
 * purchase is REJECTED invalid. Each rule with the sold-out gate off and on: the gate answers as the script would.
 */
@ParameterizedClass(name = "gate {0}")
@ValueSource(booleans = {false, true})
class SaleRulesTest extends TestRedisCase {
    static final long GOODS = 1002;

    @Parameter
    boolean gate;

    Deciding d;

    Instant during() {
        return start.plusSeconds(5);
    }

    Instant end() {
        return start.plusSeconds(3600); // Deciding.open's window
    }

    Deciding sale(long units, int limit) {
        d = new Deciding(redis, GOODS, gate);
        assertThat(d.one(d.open(units, start, limit, "open")).ledger().type()).isEqualTo(LedgerType.OPENED);
        return d;
    }

    Outcome buy(String requestId, long user, int quantity, Instant at) {
        Decision x = d.one(new Purchase(requestId, GOODS, user, quantity, at));
        assertThat(x.hasOutcome()).as("an outcome for %s", requestId).isTrue();
        return x.outcome();
    }

    Outcome buy(String requestId, long user) {
        return buy(requestId, user, 1, during());
    }

    /** The outcome's kind, reason and units left. */
    static ListAssert<Object> assertOutcome(Outcome o) {
        return assertThat(Arrays.asList(o.outcome(), o.reason(), o.stockAfter()));
    }

    LedgerEntry ledger(Decision x) {
        assertThat(x.hasLedger()).as("a ledger entry: %s", x).isTrue();
        return x.ledger();
    }

    long stock() {
        return Long.parseLong(d.redisStock());
    }

    static void assertNothing(Decision x) {
        assertThat(x).as("nothing emitted").isEqualTo(Decision.NOTHING);
    }

    @Test
    void theWindowIsJudgedByAcceptedAt_notTheWallClock() {
        sale(5, 1);
        assertOutcome(buy("early", 1, 1, start.minusMillis(1)))
                .containsExactly(OutcomeKind.REJECTED, "not_started", 5L);
        assertOutcome(buy("first", 2, 1, start)).containsExactly(OutcomeKind.SUCCESS, null, 4L);
        assertOutcome(buy("late", 3, 1, end())).containsExactly(OutcomeKind.REJECTED, "ended", 4L);
        assertOutcome(buy("last", 4, 1, end().minusMillis(1))).containsExactly(OutcomeKind.SUCCESS, null, 3L);
    }

    @Test
    void noSaleAndOverLimitAreRejectedWithTheirReason() {
        d = new Deciding(redis, GOODS, gate);
        assertOutcome(buy("nosale", 1)).containsExactly(OutcomeKind.REJECTED, "no_sale", 0L);
        assertThat(d.redisStock()).as("a goods without a sale gets no keys").isNull();
        assertThat(d.one(d.open(5, start, 2, "open")).hasLedger()).isTrue();
        assertOutcome(buy("big", 1, 3, during())).containsExactly(OutcomeKind.REJECTED, "over_limit", 5L);
        assertOutcome(buy("ok", 1, 2, during())).containsExactly(OutcomeKind.SUCCESS, null, 3L);
        assertThat(stock()).isEqualTo(3);
    }

    @Test
    void aBuyerWithALivePurchaseIsDuplicate_beforeTheStockIsChecked_andTheStockIsUntouched() {
        sale(2, 1);
        buy("r1", 7);
        assertOutcome(buy("r2", 7)).containsExactly(OutcomeKind.DUPLICATE, null, 1L);
        buy("r3", 8);
        assertOutcome(buy("r4", 8)).as("holds one, stock is 0").containsExactly(OutcomeKind.DUPLICATE, null, 0L);
        assertOutcome(buy("r5", 9)).containsExactly(OutcomeKind.SOLD_OUT, null, 0L);
        assertThat(stock()).isZero();
        assertThat(d.folds.holdings(GOODS)).containsOnlyKeys(7L, 8L);
    }

    @Test
    void aQuantityAboveTheStockIsSoldOutWithoutPartialDeduct_andExactlyTheStockSellsToZero() {
        sale(3, 5);
        assertOutcome(buy("r1", 1, 4, during())).containsExactly(OutcomeKind.SOLD_OUT, null, 3L);
        assertThat(stock()).isEqualTo(3);
        Decision all = d.one(new Purchase("r2", GOODS, 1, 3, during()));
        assertOutcome(all.outcome()).containsExactly(OutcomeKind.SUCCESS, null, 0L);
        assertThat(ledger(all))
                .extracting(LedgerEntry::type, LedgerEntry::quantity)
                .containsExactly(LedgerType.DEDUCTED, 3L);
        assertOutcome(buy("r3", 2)).containsExactly(OutcomeKind.SOLD_OUT, null, 0L);
        assertThat(stock()).isZero();
    }

    @Test
    void anInvalidPurchaseIsRejectedInvalid_andItsRetryEmitsNothing() {
        sale(5, 1);
        Purchase bad = new Purchase("bad", GOODS, 7, 0, during()); // quantity 0: parsed as an invalid purchase
        assertOutcome(d.one(bad).outcome()).containsExactly(OutcomeKind.REJECTED, "invalid", 5L);
        assertNothing(d.one(bad));
        assertThat(d.folds.decision(GOODS, FoldStore.purchaseKey("bad"))).startsWith("REJECTED|invalid|");
        assertThat(stock()).isEqualTo(5);
    }

    @Test
    void aRecordDecidedAgainAtItsOffsetAnswersAsBefore_aRetryElsewhereEmitsNothing_evenWhenTheStockChanged() {
        sale(1, 1);
        Purchase p = d.buy("r1", 7, during());
        long at = d.offset();
        Outcome first = d.one(p).outcome();
        assertOutcome(buy("r2", 8)).containsExactly(OutcomeKind.SOLD_OUT, null, 0L);

        Decision again = new Decider(redis.scripts(), Clock.systemUTC(), d.folds)
                .decideAll(List.of(d.input(at, p)))
                .get(0);

        assertThat(again.outcome())
                .usingRecursiveComparison()
                .ignoringFields("decidedAt")
                .isEqualTo(first);
        assertThat(again.hasLedger())
                .as("the DEDUCTED entry was emitted with the first")
                .isFalse();
        assertNothing(d.one(p));
        assertThat(ledger(d.one(d.release(7, "r1", "rel-1"))).type()).isEqualTo(LedgerType.RELEASED);
        assertNothing(d.one(d.buy("r2", 8, during()))); // its SOLD_OUT stands: dedupe comes before the stock
        assertThat(stock()).isEqualTo(1);
    }

    @Test
    void anIdReusedForAnotherQuantityOrBuyerIsRejectedInvalid_andTheFirstPurchaseKeepsItsUnit() {
        sale(5, 2);
        buy("r1", 7);
        Outcome more = buy("r1", 7, 2, during());
        Outcome other = buy("r1", 8, 1, during());
        assertOutcome(more).containsExactly(OutcomeKind.REJECTED, "invalid", 4L);
        assertThat(more.detail()).contains("quantity");
        assertOutcome(other).containsExactly(OutcomeKind.REJECTED, "invalid", 4L);
        assertThat(other.detail()).contains("userId");
        assertThat(stock()).isEqualTo(4);
        assertThat(d.folds.holdings(GOODS)).containsOnlyKeys(7L);
        assertThat(StoredDecision.parse(d.folds.decision(GOODS, FoldStore.purchaseKey("r1")))
                        .payload())
                .isEqualTo("7:1");
    }

    @Test
    void theSameIdTwiceInOneBatch_isARetryOrAReuse_exactlyAsInTwoBatches() {
        sale(5, 1);
        List<Decision> decided = d.batch(
                d.buy("r1", 7, during()),
                d.buy("r1", 7, during()), // a retry
                d.buy("r1", 8, during()), // a reuse for another buyer
                d.pay(7, "r1", "pay-1"),
                d.pay(7, "r1", "pay-1"), // a retry
                d.release(7, "r1", "rel-1"));

        assertOutcome(decided.get(0).outcome()).containsExactly(OutcomeKind.SUCCESS, null, 4L);
        assertNothing(decided.get(1));
        assertOutcome(decided.get(2).outcome()).containsExactly(OutcomeKind.REJECTED, "invalid", 4L);
        assertThat(ledger(decided.get(3)).type()).isEqualTo(LedgerType.PAID);
        assertNothing(decided.get(4));
        assertThat(decided.get(5).toDlq()).as("paid").isTrue();
        assertThat(StoredDecision.parse(d.folds.decision(GOODS, FoldStore.purchaseKey("r1"))))
                .extracting(StoredDecision::result, StoredDecision::payload)
                .containsExactly("SUCCESS", "7:1");
        assertThat(stock()).isEqualTo(4);
        assertThat(d.folds.holdings(GOODS)).containsOnlyKeys(7L);
    }

    @Test
    void aReleaseGivesBackWhatTheBuyerHolds_freesTheBuyer_andIsIdempotentByOpId() {
        sale(5, 3);
        buy("r1", 7, 2, during());
        Release rel = new Release(GOODS, 7, 2, 11L, "r1", "payment_timeout", "rel-11");
        assertThat(ledger(d.one(rel)))
                .extracting(LedgerEntry::type, LedgerEntry::quantity, LedgerEntry::stockAfter)
                .containsExactly(LedgerType.RELEASED, 2L, 5L);
        assertNothing(d.one(rel));
        assertThat(stock()).isEqualTo(5);
        assertOutcome(buy("r2", 7)).as("a released buyer may buy again").containsExactly(OutcomeKind.SUCCESS, null, 4L);
    }

    @Test
    void aReleaseOfANonHolder_orOfARequestTheBuyerDoesNotHold_changesNothing() {
        sale(5, 1);
        buy("r1", 7);
        assertNothing(d.one(new Release(GOODS, 8, 1, null, null, "repair", "rel-x")));
        assertNothing(d.one(d.release(7, "r-other", "rel-y")));
        assertThat(stock()).isEqualTo(4);
        assertThat(d.folds.holdings(GOODS)).containsOnlyKeys(7L);
    }

    @Test
    void anOpenOverALiveSaleIsRefused_forcedToo_whileBuyersHoldUnits_andAForcedOpenWithoutBuyersReplacesIt() {
        sale(5, 1);
        buy("r1", 7);
        assertThat(d.one(d.open(10, start, 1, "reopen")).dlqReason()).contains("force=true");
        OpenSale forced = new OpenSale(GOODS, 10, start, end(), 1, "reopen-forced", true);
        assertThat(d.one(forced).dlqReason()).contains("still hold units");
        assertThat(stock()).isEqualTo(4);

        d.one(d.release(7, "r1", "rel-1"));
        Decision opened = d.one(new OpenSale(GOODS, 10, start, end(), 1, "reopen-forced-2", true));

        assertThat(ledger(opened))
                .extracting(LedgerEntry::type, LedgerEntry::quantity, LedgerEntry::stockAfter)
                .containsExactly(LedgerType.OPENED, 5L, 10L);
        assertThat(stock()).isEqualTo(10);
        assertThat(redis.redis.pttl(redis.keys.stock(GOODS)))
                .as("keys expire after the sale")
                .isPositive();
    }

    @Test
    void aCloseEndsTheSaleForLaterCommands_andIsIdempotentByOpId() {
        sale(5, 1);
        assertThat(ledger(d.one(d.close("close-1"))).type()).isEqualTo(LedgerType.CLOSED);
        assertOutcome(buy("r1", 7)).containsExactly(OutcomeKind.REJECTED, "ended", 5L);
        assertNothing(d.one(d.close("close-1")));
        assertThat(d.folds.get(GOODS).status).isEqualTo("closed");
    }

    @Test
    void aRestoreCommandMakesTheKeysWhatTheFoldSays_andIsIdempotentByOpId() {
        sale(5, 1);
        buy("r7", 7);
        buy("r8", 8);
        d.one(d.pay(8, "r8", "pay-8"));
        redis.redis.set(redis.keys.stock(GOODS), "99"); // drift the marker cannot see: the reconciler's restore
        redis.redis.hdel(redis.keys.buyers(GOODS), "7");
        redis.redis.del(redis.keys.paidMarks(GOODS));
        long at = d.offset();

        assertThat(ledger(d.one(new Restore(GOODS, "restore-1"))))
                .extracting(LedgerEntry::type, LedgerEntry::stockAfter)
                .containsExactly(LedgerType.RESTORED, 3L);

        assertThat(stock()).isEqualTo(3);
        assertThat(redis.redis.hgetAll(redis.keys.buyers(GOODS))).isEqualTo(Map.of("7", "1", "8", "1"));
        assertThat(redis.redis.hkeys(redis.keys.paidMarks(GOODS))).containsOnly("r8");
        assertThat(redis.redis.hget(redis.keys.sale(GOODS), "at")).isEqualTo(Long.toString(at));
        assertNothing(d.one(new Restore(GOODS, "restore-1")));
        assertNothing(d.one(d.buy("r7", 7, during())));
        assertOutcome(buy("r9", 9)).as("user 9 is not in the fold").containsExactly(OutcomeKind.SUCCESS, null, 2L);
        assertThat(d.one(d.release(8, "r8", "rel-8")).toDlq()).as("still paid").isTrue();
    }

    @Test
    void aPaidPurchaseIsNeverReleased_whateverTheReleaseNames_andItsUnitStaysSold() {
        sale(5, 2);
        buy("r1", 7, 2, during());
        assertThat(ledger(d.one(d.pay(7, "r1", "pay-11"))))
                .extracting(LedgerEntry::type, LedgerEntry::stockAfter)
                .containsExactly(LedgerType.PAID, 3L);
        assertThat(d.one(d.release(7, "r1", "rel-named")).dlqReason()).contains("is paid");
        assertThat(d.one(new Release(GOODS, 7, 2, null, null, "repair", "rel-any"))
                        .dlqReason())
                .contains("is paid");
        assertThat(stock()).isEqualTo(3);
        assertOutcome(buy("r1-again", 7))
                .as("the buyer still holds it")
                .containsExactly(OutcomeKind.DUPLICATE, null, 3L);
        assertThat(d.folds.holdings(GOODS).get(7L).paid()).isTrue();
    }

    @Test
    void aPayAfterTheReleaseIsRefused_theUnitStaysBackOnSale() {
        sale(5, 1);
        buy("r1", 7);
        d.one(d.release(7, "r1", "rel-11"));
        assertThat(ledger(d.one(d.pay(7, "r1", "pay-11"))).type()).isEqualTo(LedgerType.PAYMENT_REFUSED);
        assertThat(redis.redis.exists(redis.keys.paidMarks(GOODS))).isFalse();
        assertOutcome(buy("r2", 8)).containsExactly(OutcomeKind.SUCCESS, null, 4L);
    }

    @Test
    void aPayOfAnotherPurchaseOfTheBuyer_orOfNobody_isRefused_andAPayIsIdempotentByOpId() {
        sale(5, 1);
        buy("r1", 7);
        assertThat(ledger(d.one(d.pay(7, "r-old", "pay-10"))).type()).isEqualTo(LedgerType.PAYMENT_REFUSED);
        assertThat(ledger(d.one(d.pay(9, "r9", "pay-12"))).type()).isEqualTo(LedgerType.PAYMENT_REFUSED);
        assertThat(ledger(d.one(d.pay(7, "r1", "pay-11"))))
                .extracting(LedgerEntry::type)
                .isEqualTo(LedgerType.PAID);
        assertNothing(d.one(d.pay(7, "r1", "pay-11")));
        assertThat(redis.redis.hgetAll(redis.keys.paidMarks(GOODS))).isEqualTo(Map.of("r1", "pay-11"));
    }

    @Test
    void requestIdsAndOpIdsNeverShareADecision_anIdOfOneKindMakesNoneOfTheOtherARetry() {
        sale(5, 1);
        buy("r1", 7);
        assertOutcome(buy("rel-11", 8)).containsExactly(OutcomeKind.SUCCESS, null, 3L);
        assertOutcome(buy("close-1", 9)).containsExactly(OutcomeKind.SUCCESS, null, 2L);
        assertThat(ledger(d.one(d.release(7, "r1", "rel-11"))).type()).isEqualTo(LedgerType.RELEASED);
        assertThat(ledger(d.one(d.close("close-1"))).type()).isEqualTo(LedgerType.CLOSED);
        assertThat(d.folds.decision(GOODS, FoldStore.purchaseKey("rel-11"))).startsWith("SUCCESS|");
        assertThat(d.folds.decision(GOODS, FoldStore.operationKey("rel-11"))).startsWith("RELEASED|");
    }

    @Test
    void aClientCannotPlantAPaidMark_norInheritOneByReusingAPaidRequestId() {
        sale(5, 1);
        buy("r1", 7);
        d.one(d.pay(7, "r1", "pay-1"));
        assertOutcome(buy("r1", 8)).as("the id is taken").containsExactly(OutcomeKind.REJECTED, "invalid", 4L);
        assertThat(redis.redis.hget(redis.keys.holders(GOODS), "8")).isNull();
        assertOutcome(buy("paid:r1", 8)).containsExactly(OutcomeKind.SUCCESS, null, 3L);

        assertThat(ledger(d.one(d.release(8, "paid:r1", "rel-8"))).type()).isEqualTo(LedgerType.RELEASED);
        assertThat(redis.redis.hgetAll(redis.keys.paidMarks(GOODS))).isEqualTo(Map.of("r1", "pay-1"));
    }

    @Test
    void theFoldKeepsEveryDecisionInTheFormatStoredDecisionReads_andRedisKeepsNone() {
        sale(2, 1);
        long at = d.offset();
        long before = System.currentTimeMillis();
        buy("fmt", 7);

        StoredDecision stored = StoredDecision.parse(d.folds.decision(GOODS, FoldStore.purchaseKey("fmt")));

        assertThat(stored)
                .extracting(StoredDecision::result, StoredDecision::detail, StoredDecision::stockAfter)
                .containsExactly("SUCCESS", "", 1L);
        assertThat(stored.position()).isEqualTo("0:" + at);
        assertThat(stored.payload()).isEqualTo("7:1");
        assertThat(stored.decidedAt()).isBetween(before, System.currentTimeMillis());
        assertThat(stored.offsetIn(0)).isEqualTo(at);
        assertThat(stored.offsetIn(3)).isEqualTo(-1);
        assertThat(StoredDecision.parse(stored.encode())).isEqualTo(stored);
        assertThat(catchThrowable(() -> StoredDecision.parse("SUCCESS|1")))
                .hasMessageContaining("not a stored decision");
        assertThat(d.folds.decision(GOODS, FoldStore.operationKey("open"))).startsWith("OPENED|");
        assertThat(StockScriptsTest.keysOf(redis))
                .as("the goods' keys, no decisions")
                .isSubsetOf(redis.keys.goodsKeys(GOODS));
    }
}
