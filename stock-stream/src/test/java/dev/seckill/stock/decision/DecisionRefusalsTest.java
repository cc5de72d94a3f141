package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.ledger.GoodsFold;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the stream refuses before or instead of a Lua call, and what a decided id answers later — each case one that a
 * surviving mutant showed no test checked (docs/quality.md): a poison record or one keyed by another goods, an open
 * the stream cannot decide or whose window was over when it was issued, a close or restore with nothing to act on, a
 * restore judged by the fold's recorded expiry, a forced open or a restore behind a purchase in its own batch, a reused
 * id's reason, an id decided before the first open.
 */
class DecisionRefusalsTest extends TestRedisCase {
    static final long GOODS = 3101;
    final TransactionalFolds folds = new TransactionalFolds();
    Decider decider;
    long offset;

    @BeforeEach
    void decider() {
        decider = new Decider(redis.scripts(), Clock.systemUTC(), folds);
    }

    Decider.Input input(Command c, String key, long timestamp) {
        return new Decider.Input(key, CommandCodec.encode(c), 0, offset++, timestamp);
    }

    List<Decision> batch(Command... commands) {
        List<Decider.Input> inputs = new ArrayList<>();
        for (Command c : commands) inputs.add(input(c, Long.toString(c.goodsId()), System.currentTimeMillis()));
        return decider.decideAll(inputs);
    }

    Decision one(Command c) {
        return batch(c).get(0);
    }

    OpenSale open(long stock, int limit, String opId, boolean force) {
        return new OpenSale(GOODS, stock, start, start.plusSeconds(3600), limit, opId, force);
    }

    Purchase buy(String requestId, long user, int quantity) {
        return new Purchase(requestId, GOODS, user, quantity, start.plusSeconds(5));
    }

    /** A fold of 5 units, one per buyer, whose window ended two days ago and whose keys expire {@code keysIn} from now. */
    void saleEndedTwoDaysAgo(Duration keysIn) {
        GoodsFold fold = new GoodsFold();
        long now = System.currentTimeMillis();
        fold.opened = 5;
        fold.stock = 5;
        fold.perUserLimit = 1;
        fold.startAt = now - Duration.ofDays(3).toMillis();
        fold.endAt = now - Duration.ofDays(2).toMillis();
        fold.expireAt = now + keysIn.toMillis();
        folds.put(GOODS, fold);
    }

    String stock() {
        return redis.redis.get(redis.keys.stock(GOODS));
    }

    @Test
    void givenARecordKeyedByAnotherGoods_whenDecided_thenItGoesToTheDlqAndBuysNothing() {
        one(open(5, 1, "open", false));

        Decision d = decider.decideAll(List.of(input(buy("r1", 1, 1), "9999", System.currentTimeMillis())))
                .get(0);

        assertThat(d.dlqReason()).contains("record key '9999' is not the goodsId " + GOODS);
        assertThat(stock()).isEqualTo("5");
    }

    @Test
    void givenAnOpenDecidedByADraw_whenDecided_thenItIsRefusedAndNoSaleExists() {
        Decision d =
                one(new OpenSale(GOODS, 5, start, start.plusSeconds(3600), 1, "open", false, Fairness.LOTTERY, 60_000));

        assertThat(d.dlqReason()).contains("fairness lottery");
        assertThat(stock()).isNull();
    }

    @Test
    void givenAnOpenWhoseWindowEndedBeforeItWasIssued_thenItIsRefused_butTheSameOpenOfUnknownTimeOpens() {
        OpenSale past = new OpenSale(GOODS, 5, start.minusSeconds(7200), start.minusSeconds(3600), 1, "open", false);

        Decision issuedLate = decider.decideAll(List.of(input(past, Long.toString(GOODS), start.toEpochMilli())))
                .get(0);
        assertThat(issuedLate.dlqReason()).contains("before the command was issued");
        assertThat(stock()).isNull();

        Decision drill = decider.decideAll(List.of(input(
                        new OpenSale(GOODS, 5, past.startAt(), past.endAt(), 1, "open-drill", false),
                        Long.toString(GOODS),
                        -1)))
                .get(0);
        assertThat(drill.ledger().type()).as("a drill's copy: no record time").isEqualTo(LedgerType.OPENED);
    }

    @Test
    void givenAGoodsWithoutASale_whenARestoreArrives_thenItIsRefused() {
        assertThat(one(new Restore(GOODS, "restore")).dlqReason()).contains("no sale of goods " + GOODS);
        assertThat(stock()).isNull();
    }

    @Test
    void givenASaleWhoseKeysHaveExpired_whenARestoreArrives_thenItIsRefusedInsteadOfBringingTheSaleBack() {
        saleEndedTwoDaysAgo(Duration.ofDays(-1));

        assertThat(one(new Restore(GOODS, "restore")).dlqReason()).contains("keys expired");
        assertThat(stock()).isNull();
    }

    @Test
    void givenAPurchaseAndARestoreInOneBatch_thenTheRestoreKeepsThePurchase_andTheFoldNamesTheRestoresOffset() {
        one(open(5, 1, "open", false));

        List<Decision> out = batch(buy("r1", 1, 1), new Restore(GOODS, "restore"));

        assertThat(out.get(0).outcome().outcome()).isEqualTo(OutcomeKind.SUCCESS);
        assertThat(out.get(1).ledger().type()).isEqualTo(LedgerType.RESTORED);
        assertThat(out.get(1).ledger().stockAfter())
                .as("restored after the purchase")
                .isEqualTo(4);
        assertThat(stock()).isEqualTo("4");
        assertThat(redis.redis.hkeys(redis.keys.buyers(GOODS))).containsExactly("1");
        assertThat(folds.get(GOODS).at).as("the restore's offset").isEqualTo(Long.toString(offset - 1));
    }

    @Test
    void givenAPurchaseAndAForcedOpenInOneBatch_thenTheOpenSeesTheNewBuyerAndIsRefused() {
        one(open(5, 1, "open", false));

        List<Decision> out = batch(buy("r1", 1, 1), open(10, 1, "open-2", true));

        assertThat(out.get(0).outcome().outcome()).isEqualTo(OutcomeKind.SUCCESS);
        assertThat(out.get(1).dlqReason()).contains("1 buyers of the previous sale");
        assertThat(stock()).isEqualTo("4");
    }

    @Test
    void givenADecidedRequestId_whenItIsReusedForAnotherQuantityOrBuyer_thenTheReasonNamesTheFieldThatDiffers() {
        one(open(5, 2, "open", false));
        one(buy("r1", 1, 1));

        assertThat(one(buy("r1", 1, 2)).outcome().detail()).contains("differs in quantity");
        assertThat(one(buy("r1", 2, 1)).outcome().detail()).contains("differs in userId");
    }

    @Test
    void givenAnIdDecidedBeforeTheFirstOpen_whenItIsSentAgainInTheSale_thenItIsAReuseOfAnEarlierSale() {
        assertThat(one(buy("early", 1, 1)).outcome().reason())
                .as("at offset 0, no sale yet")
                .isEqualTo("no_sale");
        one(open(5, 1, "open", false));

        Decision again = one(buy("early", 1, 1));

        assertThat(again.outcome().outcome()).isEqualTo(OutcomeKind.REJECTED);
        assertThat(again.outcome().detail()).contains("earlier sale");
        assertThat(stock()).isEqualTo("5");
    }

    @Test
    void givenAPoisonRecordOrAnInvalidPurchaseKeyedByAnotherGoods_thenEachGoesToTheDlq() {
        one(open(5, 1, "open", false));
        String valid = new String(CommandCodec.encode(buy("r1", 1, 1)), StandardCharsets.UTF_8);
        String invalid = valid.replace("\"quantity\":1", "\"quantity\":0");
        assertThat(invalid).isNotEqualTo(valid);

        List<Decision> out = decider.decideAll(List.of(
                new Decider.Input(Long.toString(GOODS), "not json".getBytes(StandardCharsets.UTF_8), 0, offset++),
                new Decider.Input("9999", invalid.getBytes(StandardCharsets.UTF_8), 0, offset++)));

        assertThat(out.get(0).dlqReason()).contains("malformed JSON");
        assertThat(out.get(1).dlqReason()).contains("record key '9999'");
        assertThat(stock()).isEqualTo("5");
    }

    @Test
    void givenAGoodsWithoutASale_whenACloseArrives_thenNothingIsEmitted() {
        assertThat(one(new CloseSale(GOODS, "close"))).isEqualTo(Decision.NOTHING);
        assertThat(stock()).isNull();
    }

    @Test
    void givenARestoreAloneInItsBatch_thenTheFoldNamesTheRestoresOffset() {
        one(open(5, 1, "open", false));

        assertThat(one(new Restore(GOODS, "restore")).ledger().type()).isEqualTo(LedgerType.RESTORED);

        assertThat(folds.get(GOODS).at).isEqualTo(Long.toString(offset - 1));
    }

    @Test
    void givenADrillsSaleWhoseWindowEndedDaysAgo_whenRestored_thenItsRecordedExpiryDecides_notEndPlusGrace() {
        saleEndedTwoDaysAgo(Duration.ofHours(1));

        assertThat(one(new Restore(GOODS, "restore")).ledger().type()).isEqualTo(LedgerType.RESTORED);
        assertThat(stock()).isEqualTo("5");
    }
}
