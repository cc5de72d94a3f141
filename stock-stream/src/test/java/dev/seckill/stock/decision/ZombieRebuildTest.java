package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.contracts.outcome.OutcomeKind;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.junit.jupiter.api.Test;

/**
 * A frozen instance that goes on finds its goods' keys ahead of its fold — its removal's survivor decided them since —
 * and must not rebuild them from its stale fold (a zombie's write to Redis, which the survivor then rebuilds again).
 * Given a task that decided and committed a sale's open, and Redis moved past its fold (a purchase whose fold change
 * this task never committed: the survivor's, as this task sees it), when this instance's lease lapsed since the task
 * started, its next purchase leaves the keys as they are and the task rejoins; without a lapse the keys are rebuilt, as
 * after a crash of this task's own.
 */
class ZombieRebuildTest extends TestRedisCase {
    static final long GOODS = 5101;

    Instant during() {
        return start.plusSeconds(5);
    }

    /** A task deciding GOODS through scripts that ask after {@code lapses}, its keys moved past its fold. */
    Deciding keysAheadOfTheFold(AtomicLong lapses) {
        StockScripts scripts = redis.scripts();
        scripts.ownLease(lapses::get);
        Deciding d = new Deciding(redis, GOODS, false, scripts);
        d.one(d.open(3, start, 1, "open"));
        d.commit();
        assertThat(d.one(d.buy("r1", 1, during())).outcome().outcome()).isEqualTo(OutcomeKind.SUCCESS);
        d.folds.abort(); // the fold goes back to the open; Redis keeps the purchase
        assertThat(d.redisStock()).isEqualTo("2");
        return d;
    }

    @Test
    void givenTheLeaseLapsedSinceTheTaskStarted_whenItsKeysAreAheadOfItsFold_thenTheyAreLeftAndTheTaskRejoins() {
        AtomicLong lapses = new AtomicLong();
        Deciding zombie = keysAheadOfTheFold(lapses);
        RedisSnapshot survivors = RedisSnapshot.take(redis, GOODS);

        lapses.incrementAndGet(); // frozen past its lease: a peer may have removed it

        assertThatThrownBy(() -> zombie.one(zombie.buy("r2", 2, during())))
                .isInstanceOf(TaskMigratedException.class)
                .hasMessageContaining("lease lapsed");
        assertThat(RedisSnapshot.take(redis, GOODS).dumps())
                .as("the keys as the survivor left them")
                .isNotEmpty()
                .isEqualTo(survivors.dumps());
    }

    @Test
    void givenNoLapse_whenItsKeysAreAheadOfItsFold_thenTheyAreRebuiltFromItAndThePurchaseDecided() {
        Deciding task = keysAheadOfTheFold(new AtomicLong());

        assertThat(task.one(task.buy("r2", 2, during())).outcome().outcome()).isEqualTo(OutcomeKind.SUCCESS);
        assertThat(task.redisStock())
                .as("rebuilt from the fold (3), then r2's unit")
                .isEqualTo("2");
    }
}
