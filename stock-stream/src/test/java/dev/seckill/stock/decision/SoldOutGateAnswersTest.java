package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.OutcomeKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ListAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the sold-out gate answers, and that its answers are the script's (docs/invariants.md, "The decision"): a
 * {@link Decider} with the gate on over the machine's real Redis, counting the purchases answered without a Lua call.
 * The rules' outcomes are the same with the gate on or off ({@link SaleRulesTest}), so only the count says whether the
 * gate answered at all (mutation testing, docs/quality.md: the gate's answers replaced by "ask Lua" went unnoticed).
 */
class SoldOutGateAnswersTest extends TestRedisCase {
    static final long GOODS = 3001;
    final TransactionalFolds folds = new TransactionalFolds();
    final AtomicInteger answeredByGate = new AtomicInteger();
    final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    Decider decider;
    long offset;

    @BeforeEach
    void decider() {
        StockScripts scripts = new StockScripts(redis.redis, redis.keys, metrics, 3, Duration.ofMillis(10));
        decider = new Decider(scripts, Clock.systemUTC(), folds, true, answeredByGate::incrementAndGet);
    }

    Instant end() {
        return start.plusSeconds(3600);
    }

    Decision decide(Command c) {
        return decider.decideAll(List.of(new Decider.Input(
                        Long.toString(c.goodsId()), CommandCodec.encode(c), 0, offset++, System.currentTimeMillis())))
                .get(0);
    }

    ListAssert<Object> buy(String requestId, long user, int quantity, Instant at) {
        Decision d = decide(new Purchase(requestId, GOODS, user, quantity, at));
        return assertThat(Arrays.asList(d.outcome().outcome(), d.outcome().reason()));
    }

    /** A sale of one unit at one per buyer, bought by user 1: sold out by a SUCCESS that left nothing. */
    void soldOutByTheLastSuccess() {
        assertThat(decide(new OpenSale(GOODS, 1, start, end(), 1, "open", false))
                        .ledger()
                        .type())
                .isEqualTo(LedgerType.OPENED);
        buy("last", 1, 1, start.plusSeconds(1)).containsExactly(OutcomeKind.SUCCESS, null);
    }

    @Test
    void givenAGoodsSoldOutByItsLastSuccess_whenPurchasesTheScriptCouldOnlyRefuseArrive_thenTheGateAnswersEach() {
        soldOutByTheLastSuccess();

        buy("early", 2, 1, start.minusMillis(1)).containsExactly(OutcomeKind.REJECTED, "not_started");
        buy("big", 2, 2, start.plusSeconds(2)).containsExactly(OutcomeKind.REJECTED, "over_limit");
        buy("again", 1, 1, start.plusSeconds(2)).containsExactly(OutcomeKind.DUPLICATE, null);
        buy("late-comer", 2, 1, start.plusSeconds(2)).containsExactly(OutcomeKind.SOLD_OUT, null);

        assertThat(answeredByGate).as("all four answered without a Lua call").hasValue(4);
    }

    @Test
    void givenASoldOutGoods_whenBuyersComeAtTheWindowsExactEdges_thenTheStartIsInsideAndTheEndOutside() {
        soldOutByTheLastSuccess();

        buy("at-start", 2, 1, start).containsExactly(OutcomeKind.SOLD_OUT, null);
        buy("at-end", 3, 1, end()).containsExactly(OutcomeKind.REJECTED, "ended");
        buy("before-end", 4, 1, end().minusMillis(1)).containsExactly(OutcomeKind.SOLD_OUT, null);
    }

    @Test
    void givenAGoodsWithUnitsLeft_whenAPurchaseOverTheLimitArrives_thenTheScriptAnswersIt_notTheGate() {
        decide(new OpenSale(GOODS, 5, start, end(), 1, "open", false));
        buy("first", 1, 1, start.plusSeconds(1)).containsExactly(OutcomeKind.SUCCESS, null);

        buy("big", 2, 2, start.plusSeconds(2)).containsExactly(OutcomeKind.REJECTED, "over_limit");
        buy("again", 1, 1, start.plusSeconds(2)).containsExactly(OutcomeKind.DUPLICATE, null);

        assertThat(answeredByGate).as("the gate arms only at a sell-out").hasValue(0);
    }

    @Test
    void givenASoldOutGoodsWhoseUnitCameBack_whenItIsOpenedAgainWithAHigherLimit_thenTheNewLimitHolds() {
        soldOutByTheLastSuccess();
        buy("late-comer", 2, 1, start.plusSeconds(2)).containsExactly(OutcomeKind.SOLD_OUT, null);
        assertThat(decide(new Release(GOODS, 1, 1, null, "last", "payment_timeout", "rel"))
                        .ledger()
                        .type())
                .isEqualTo(LedgerType.RELEASED);

        assertThat(decide(new OpenSale(GOODS, 5, start, end(), 2, "open-2", true))
                        .ledger()
                        .type())
                .isEqualTo(LedgerType.OPENED);

        buy("two", 2, 2, start.plusSeconds(3))
                .as("not the old sale's limit of 1")
                .containsExactly(OutcomeKind.SUCCESS, null);
        assertThat(redis.redis.get(redis.keys.stock(GOODS))).isEqualTo("3");
    }

    double rebuilt(String cause) {
        var counter = metrics.find("seckill_stream_inline_restores")
                .tag("cause", cause)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void givenAGoodsTheGateAnswers_whenTheTaskChecksItsKeys_thenIntactKeysAreLeftAlone_andLostOnesRebuiltOnce() {
        soldOutByTheLastSuccess();
        String marker = redis.redis.hget(redis.keys.sale(GOODS), "at");

        decider.verifyGate();
        assertThat(rebuilt("lost") + rebuilt("ahead") + rebuilt("gone"))
                .as("nothing to rebuild")
                .isZero();
        assertThat(redis.redis.hget(redis.keys.sale(GOODS), "at")).isEqualTo(marker);

        RedisSnapshot.wipe(redis, GOODS);
        decider.verifyGate();
        decider.verifyGate();

        assertThat(rebuilt("lost")).as("rebuilt once, counted as lost").isEqualTo(1);
        assertThat(redis.redis.get(redis.keys.stock(GOODS))).isEqualTo("0");
        assertThat(redis.redis.hget(redis.keys.sale(GOODS), "at")).isEqualTo(marker);
    }
}
