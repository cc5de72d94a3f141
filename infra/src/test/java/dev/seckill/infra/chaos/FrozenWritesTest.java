package dev.seckill.infra.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.DecidedBy;
import dev.seckill.infra.chaos.FrozenWrites.Write;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The count of a frozen instance's writes after its work was taken over, on outcomes as they would be read back: given
 * who decided what and where it lies, when the freeze was.
 */
class FrozenWritesTest {
    static final long FROZE_AT = 1_000_000L;
    static final DecidedBy A_BEFORE = new DecidedBy("host-a", FROZE_AT - 60_000, 1);
    static final DecidedBy B_BEFORE = new DecidedBy("host-b", FROZE_AT - 60_000, 1);
    static final DecidedBy B_TAKEOVER = new DecidedBy("host-b", FROZE_AT + 700, 2);
    static final DecidedBy A_REJOINED = new DecidedBy("host-a", FROZE_AT + 3_500, 2);

    static Write success(long offset, DecidedBy by, long decidedAt) {
        return new Write("p.outcome.success", 3, offset, by, decidedAt, 3);
    }

    @Test
    void givenAFenceThatHeld_whenTheSurvivorTookOver_thenNoneOfTheFrozenRunsWritesCameAfter() {
        List<Write> writes = List.of(
                success(10, A_BEFORE, FROZE_AT - 20),
                success(11, A_BEFORE, FROZE_AT - 5),
                success(12, B_TAKEOVER, FROZE_AT + 710),
                success(13, B_TAKEOVER, FROZE_AT + 720),
                new Write("p.outcome.success", 5, 40, B_BEFORE, FROZE_AT + 30, 5)); // its own partition, untouched

        FrozenWrites.Count count = FrozenWrites.count(writes, FROZE_AT, null);

        assertThat(count.violation()).isNull();
        assertThat(count.frozen()).isEqualTo("host-a");
        assertThat(count.frozenRunWrites()).isEqualTo(2);
        assertThat(count.takeoverAfterMs()).isEqualTo(710);
        assertThat(count.what()).contains("host-a's writes after its work was taken over: 0", "710 ms after it froze");
    }

    @Test
    void aFrozenRunsOutcomeCommittedAfterTheTakeover_orDecidedAfterIt_isAZombieWrite() {
        Write committedLater = success(13, A_BEFORE, FROZE_AT - 5); // decided before, committed after the survivor's
        Write decidedLater = new Write("p.outcome.sold-out", 3, 7, A_BEFORE, FROZE_AT + 3_020, 3);
        List<Write> writes = List.of(
                success(11, A_BEFORE, FROZE_AT - 10),
                success(12, B_TAKEOVER, FROZE_AT + 710),
                committedLater,
                decidedLater);

        FrozenWrites.Count count = FrozenWrites.count(writes, FROZE_AT, null);

        assertThat(count.zombies()).containsExactly(committedLater, decidedLater);
        assertThat(count.violation()).startsWith("2 outcomes of host-a's frozen run committed after");
    }

    @Test
    void theFrozenInstancesOwnNewRunIsATakeoverToo_andWithoutAnyTakeoverThereIsNothingToCount() {
        Write stale = success(13, A_BEFORE, FROZE_AT + 3_600);
        List<Write> rejoined =
                List.of(success(11, A_BEFORE, FROZE_AT - 10), success(12, A_REJOINED, FROZE_AT + 3_550), stale);
        assertThat(FrozenWrites.count(rejoined, FROZE_AT, null).zombies()).containsExactly(stale);

        FrozenWrites.Count alone = FrozenWrites.count(
                List.of(success(11, A_BEFORE, FROZE_AT - 10), success(12, A_BEFORE, FROZE_AT + 3_100)), FROZE_AT, null);
        assertThat(alone.violation()).isNull();
        assertThat(alone.what()).contains("nobody took over: it went on in its own run");
    }

    @Test
    void inABucketedSale_theSurvivorsOwnBucketIsNotTheFrozenOnes_evenInTheSameTopicPartition() {
        // host-b decides its own bucket (commands partition 5) to the end; host-a froze owning the home (partition 3)
        Write survivorsOwn = new Write("p.outcome.success", 3, 20, B_BEFORE, FROZE_AT + 900, 5);
        Write takeover = success(19, B_TAKEOVER, FROZE_AT + 710);
        Write zombie = success(21, A_BEFORE, FROZE_AT - 2);
        List<Write> writes = List.of(
                success(17, A_BEFORE, FROZE_AT - 9),
                new Write("p.outcome.success", 3, 18, B_BEFORE, FROZE_AT - 1, 5),
                takeover,
                survivorsOwn,
                zombie);

        FrozenWrites.Count named = FrozenWrites.count(writes, FROZE_AT, "host-a");

        assertThat(named.frozen())
                .as("the owner at the freeze, not the last to decide")
                .isEqualTo("host-a");
        assertThat(named.zombies()).containsExactly(zombie);
    }

    @Test
    void aFrozenInstanceThatDecidedNoneOfTheSaleBeforeTheFreeze_failsTheCount_ratherThanReadNothing() {
        List<Write> writes = List.of(success(11, A_BEFORE, FROZE_AT - 10), success(12, B_TAKEOVER, FROZE_AT + 710));

        FrozenWrites.Count misnamed = FrozenWrites.count(writes, FROZE_AT, "group-host-a");

        assertThat(misnamed.violation()).startsWith("group-host-a decided none of the 1 outcomes decided before");
        assertThat(FrozenWrites.count(writes, FROZE_AT, "host-a").violation()).isNull();
    }

    @Test
    void anOutcomeThatNamesNoRunFailsTheCount() {
        FrozenWrites.Count count = FrozenWrites.count(
                List.of(success(11, A_BEFORE, FROZE_AT - 10), success(12, null, FROZE_AT)), FROZE_AT, null);

        assertThat(count.violation()).isEqualTo("1 outcomes name no deciding run (seckill-decided-by)");
    }
}
