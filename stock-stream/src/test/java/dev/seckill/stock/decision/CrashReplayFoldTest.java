package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.OutcomeKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fold stock-stream keeps (what the keys are rebuilt from) must equal Redis and the ledger after a
 * crash replay. The first run answers a purchase SOLD_OUT in memory (the gate), then a release returns a unit; it
 * crashes before its commit, so the fold goes back to its committed state while Redis keeps the calls' writes. The
 * replay has no armed gate and finds the keys ahead of the fold: they are rebuilt from it, and the replay decides what
 * the first run decided. Also: Redis losing a goods' keys between two pipelined batches changes no decision.
 */
class CrashReplayFoldTest extends TestRedisCase {
    static final long GOODS = 5001;
    static final long CONTROL = 5002;

    Instant during() {
        return start.plusSeconds(5);
    }

    /** The units left by the ledger: the sum of the entries' changes. */
    static long ledgerStock(List<Decision> decided) {
        return decided.stream()
                .map(Decision::ledger)
                .filter(Objects::nonNull)
                .mapToLong(LedgerEntry::stockDelta)
                .sum();
    }

    @Test
    void givenACrashAfterTheGateAnsweredSoldOutAndAUnitCameBack_whenReplayed_thenFoldEqualsRedisEqualsTheLedger() {
        Deciding d = new Deciding(redis, GOODS, true);
        List<Decision> committed = new ArrayList<>(d.batch(d.open(1, start, 1, "open")));
        d.commit();
        Function<Deciding, List<Command>> run = x -> List.of(
                x.buy("first", 1, start.plusSeconds(1)),
                x.buy("second", 2, start.plusSeconds(2)),
                x.release(1, "first", "rel-first"));
        d.one(run.apply(d).get(0)); // SUCCESS, sold out: the gate arms
        List<Decision> aborted = d.batch(run.apply(d).subList(1, 3).toArray(Command[]::new));
        assertThat(aborted.get(0).outcome().outcome()).as("answered in memory").isEqualTo(OutcomeKind.SOLD_OUT);
        assertThat(aborted.get(1).ledger().type()).isEqualTo(LedgerType.RELEASED);
        assertThat(d.redisStock()).as("Redis keeps the aborted run's release").isEqualTo("1");

        d.crash(); // nothing after the open was committed; the task restarts with an empty gate
        List<Decision> replay = d.batch(run.apply(d).toArray(Command[]::new));
        committed.addAll(replay);
        d.commit();

        assertThat(replay)
                .extracting(x -> x.hasOutcome()
                        ? x.outcome().outcome().name()
                        : x.ledger().type().name())
                .as("decided as the first run did: the release comes after the purchase in the serial order")
                .containsExactly("SUCCESS", "SOLD_OUT", "RELEASED");
        long redisStock = Long.parseLong(d.redisStock());
        assertThat(redisStock).isEqualTo(1);
        assertThat(d.folds.get(GOODS).stock)
                .as("the fold a rebuild would write")
                .isEqualTo(redisStock)
                .isEqualTo(ledgerStock(committed));
        assertThat(d.folds.holdings(GOODS)).isEmpty();
        assertThat(redis.redis.hlen(redis.keys.buyers(GOODS))).isZero();
        assertThat(redis.redis.hget(redis.keys.sale(GOODS), "at")).isEqualTo(d.folds.get(GOODS).at);
    }

    /** The second batch of a goods: a purchase, the pay of a purchase of the first, a release, another purchase. */
    static List<Command> secondBatch(Deciding x, Instant during) {
        return List.of(
                x.buy("r3", 3, during),
                x.pay(1, "r1", "pay-1"),
                x.release(2, "r2", "rel-2"),
                x.buy("r4", 4, during),
                x.release(1, "r1", "rel-1"), // paid: refused
                x.buy("r5", 5, during));
    }

    static String view(Decision x) {
        if (x.hasOutcome()) return x.outcome().outcome() + "/" + x.outcome().stockAfter();
        if (x.hasLedger())
            return x.ledger().type() + "/" + x.ledger().quantity() + "/"
                    + x.ledger().stockAfter();
        return x.toDlq() ? "DLQ" : "NOTHING";
    }

    /** The goods' keys as they were after its open, before the first batch. */
    RedisSnapshot afterOpen;

    /** A sale of 3 (one per buyer) and a first batch, both committed: users 1 and 2 hold a unit. */
    Deciding firstBatch(long goods) {
        Deciding x = new Deciding(redis, goods, true);
        x.one(x.open(3, start, 1, "open"));
        afterOpen = RedisSnapshot.take(redis, goods);
        assertThat(x.batch(x.buy("r1", 1, during()), x.buy("r2", 2, during())))
                .extracting(CrashReplayFoldTest::view)
                .containsExactly("SUCCESS/2", "SUCCESS/1");
        x.commit();
        return x;
    }

    @ParameterizedTest(name = "wiped {0}")
    @ValueSource(booleans = {true, false})
    void
            givenRedisLostTheGoodsKeysBetweenTwoBatches_whenTheNextBatchHasSeveralOfItsCommands_thenAllAreDecidedAsIfNothingWasLost(
                    boolean wiped) {
        Deciding lost = firstBatch(GOODS);
        RedisSnapshot older = afterOpen;
        Deciding control = firstBatch(CONTROL);
        if (wiped) RedisSnapshot.wipe(redis, GOODS); // Redis came back empty
        else older.putBack(GOODS); // Redis came back from a snapshot older than the first batch: no buyers, 3 units

        List<Decision> decided = lost.batch(secondBatch(lost, during()).toArray(Command[]::new));
        List<Decision> expected = control.batch(secondBatch(control, during()).toArray(Command[]::new));

        assertThat(decided)
                .extracting(CrashReplayFoldTest::view)
                .containsExactly("SUCCESS/0", "PAID/0/0", "RELEASED/1/1", "SUCCESS/0", "DLQ", "SOLD_OUT/0")
                .isEqualTo(expected.stream().map(CrashReplayFoldTest::view).toList());
        assertThat(lost.redisStock()).isEqualTo("0").isEqualTo(control.redisStock());
        assertThat(lost.folds.get(GOODS).stock).isZero();
        assertThat(lost.folds.holdings(GOODS)).containsOnlyKeys(1L, 3L, 4L);
        assertThat(redis.redis.hgetAll(redis.keys.holders(GOODS)))
                .isEqualTo(Map.of("1", "r1", "3", "r3", "4", "r4"))
                .isEqualTo(redis.redis.hgetAll(redis.keys.holders(CONTROL)));
        assertThat(redis.redis.hgetAll(redis.keys.paidMarks(GOODS))).containsOnlyKeys("r1");
        assertThat(redis.redis.hget(redis.keys.sale(GOODS), "at")).isEqualTo(lost.folds.get(GOODS).at);
    }
}
