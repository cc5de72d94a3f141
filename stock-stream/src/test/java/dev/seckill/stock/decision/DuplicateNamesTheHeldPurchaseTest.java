package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.ledger.FoldStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A DUPLICATE answer names the requestId of the purchase the buyer holds ({@code heldRequestId}), so a buyer
 * who lost the answer to their first purchase (a gateway crash mid-request, no requestId of their own) learns which
 * one they hold. Decided as the stream decides ({@link Deciding}: the machine's real Redis, a fold that commits), by
 * the purchase script and, for a sold-out goods, by the sold-out gate; the same record decided again answers the same.
 */
@ParameterizedClass(name = "gate {0}")
@ValueSource(booleans = {false, true})
class DuplicateNamesTheHeldPurchaseTest extends TestRedisCase {
    static final long GOODS = 2601;

    @Parameter
    boolean gate;

    Deciding d;

    Instant during() {
        return start.plusSeconds(5);
    }

    Deciding sale(long units) {
        d = new Deciding(redis, GOODS, gate);
        assertThat(d.one(d.open(units, start, 1, "open")).ledger().type()).isEqualTo(LedgerType.OPENED);
        d.commit();
        return d;
    }

    Outcome buy(String requestId, long user) {
        Decision x = d.one(d.buy(requestId, user, during()));
        assertThat(x.hasOutcome()).as("an outcome for %s", requestId).isTrue();
        return x.outcome();
    }

    /** The record at {@code offset} decided again (a redelivery after the fold kept its decision): its stored answer. */
    Decision decidedAgain(long offset, Purchase p) {
        return new Decider(redis.scripts(), Clock.systemUTC(), d.folds)
                .decideAll(List.of(d.input(offset, p)))
                .get(0);
    }

    @Test
    void givenABuyerHoldingR1_whenTheyBuyAgainWithR2_thenTheDuplicateNamesR1() {
        sale(5);
        Outcome first = buy("r1", 7);

        Outcome again = buy("r2", 7);

        assertThat(first.outcome()).isEqualTo(OutcomeKind.SUCCESS);
        assertThat(first.heldRequestId())
                .as("only a DUPLICATE names a held purchase")
                .isNull();
        assertThat(again.outcome()).isEqualTo(OutcomeKind.DUPLICATE);
        assertThat(again.requestId()).isEqualTo("r2");
        assertThat(again.heldRequestId()).isEqualTo("r1");
    }

    /** Sold out after r1: with the gate on, r2's DUPLICATE is answered in memory, without the purchase script. */
    @Test
    void givenASoldOutGoods_whenItsBuyerBuysAgain_thenTheDuplicateNamesTheHeldPurchase_andNoOtherOutcomeNamesOne() {
        sale(1);
        buy("r1", 7);

        Outcome again = buy("r2", 7);
        Outcome soldOut = buy("r3", 8);

        assertThat(again.outcome()).isEqualTo(OutcomeKind.DUPLICATE);
        assertThat(again.heldRequestId()).isEqualTo("r1");
        assertThat(soldOut.outcome()).isEqualTo(OutcomeKind.SOLD_OUT);
        assertThat(soldOut.heldRequestId()).isNull();
    }

    @Test
    void givenADuplicate_whenItsRecordIsDecidedAgainAfterTheHoldingWasReleased_thenItNamesTheSamePurchase() {
        sale(5);
        buy("r1", 7);
        Purchase r2 = d.buy("r2", 7, during());
        long at = d.offset();
        assertThat(d.one(r2).outcome().heldRequestId()).isEqualTo("r1");
        assertThat(d.one(d.release(7, "r1", "rel-1")).ledger().type()).isEqualTo(LedgerType.RELEASED);
        assertThat(d.folds.holdings(GOODS)).isEmpty();

        Decision replayed = decidedAgain(at, r2);
        Decision retried = d.one(r2);

        assertThat(replayed.outcome().outcome()).isEqualTo(OutcomeKind.DUPLICATE);
        assertThat(replayed.outcome().heldRequestId())
                .as("kept with the decision, not read from today's holdings")
                .isEqualTo("r1");
        assertThat(retried)
                .as("a retry at another offset: its answer is out already")
                .isEqualTo(Decision.NOTHING);
    }

    @Test
    void givenACrashAfterTheDuplicate_whenTheBatchIsReplayed_thenItNamesTheHeldPurchaseAgain() {
        sale(1);
        buy("r1", 7);
        d.commit();
        assertThat(d.one(d.buy("r2", 7, during())).outcome().heldRequestId()).isEqualTo("r1");

        d.crash();
        Outcome replayed = d.one(d.buy("r2", 7, during())).outcome();

        assertThat(replayed.outcome()).isEqualTo(OutcomeKind.DUPLICATE);
        assertThat(replayed.heldRequestId()).isEqualTo("r1");
    }

    @Test
    void givenBothPurchasesInOneBatch_thenTheSecondNamesTheFirst() {
        sale(5);

        List<Decision> decided = d.batch(d.buy("r1", 7, during()), d.buy("r2", 7, during()));

        assertThat(decided)
                .extracting(x -> x.outcome().outcome(), x -> x.outcome().heldRequestId())
                .containsExactly(tuple(OutcomeKind.SUCCESS, null), tuple(OutcomeKind.DUPLICATE, "r1"));
    }

    @Test
    void givenTheFirstPurchaseReleasedAndANewOneMade_thenADuplicateNamesTheNewOne() {
        sale(1);
        buy("r1", 7);
        d.one(d.release(7, "r1", "rel-1"));
        assertThat(buy("r3", 7).outcome()).isEqualTo(OutcomeKind.SUCCESS);

        Outcome again = buy("r4", 7);

        assertThat(again.outcome()).isEqualTo(OutcomeKind.DUPLICATE);
        assertThat(again.heldRequestId()).isEqualTo("r3");
    }

    @Test
    void aDuplicateStoredBeforeItsHeldPurchaseWasKept_isDecidedAgainWithoutOne() {
        sale(5);
        buy("r1", 7);
        Purchase r2 = d.buy("r2", 7, during());
        long at = d.offset();
        d.one(r2);
        String stored = d.folds.decision(GOODS, FoldStore.purchaseKey("r2"));
        String before = stored.substring(0, stored.lastIndexOf('|')); // the entry as written before the change
        assertThat(stored).isEqualTo(before + "|r1");
        d.folds.decide(GOODS, FoldStore.purchaseKey("r2"), before);

        Outcome replayed = decidedAgain(at, r2).outcome();

        assertThat(StoredDecision.parse(before).heldRequestId()).isNull();
        assertThat(replayed.outcome()).isEqualTo(OutcomeKind.DUPLICATE);
        assertThat(replayed.heldRequestId()).isNull();
    }
}
