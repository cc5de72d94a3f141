package dev.seckill.infra.chaos;

import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.kafka.KafkaClients;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.GroupState;

/**
 * Faults of the services' own processes: SIGKILLs at random moments, one in the middle of a rebalance, and a frozen
 * process (SIGSTOP, then SIGCONT).
 */
final class ProcessFaults {
    private ProcessFaults() {}

    /**
     * SIGKILL of {@code part} {@code times} times, 0.5–3 s apart, each restarted at once (or {@code --restart-after-ms}
     * later). Recovery as the buyer feels it: SIGKILL → the first final answer to a purchase sent after it (the
     * order-writer, whom no answer waits for: its restart's /health 200 → an order for every SUCCESS so far); the
     * SIGKILL's wall-clock time (to read the services' logs by) and the restart's /health 200 are logged.
     */
    static ChaosScenario.Fault kill(String part, int times) {
        return t -> {
            for (int k = 0; k < times; k++) {
                if (k > 0 && !t.pause(500, 3_000)) return;
                // with several stream instances, the one that owns the sale's partition: a kill elsewhere is not felt
                String victim = part.equals(STREAM) ? owner(t).part() : part;
                long at = System.nanoTime();
                LocalTime wall = LocalTime.now().truncatedTo(ChronoUnit.MILLIS); // to read the services' logs by
                long health = t.pipeline.killAndRestart(victim, t.restartAfterMs);
                t.out.printf(
                        "    %s SIGKILLed at %s%s: its restart's /health 200 after %,d ms%n",
                        victim,
                        wall,
                        t.restartAfterMs > 0 ? String.format(", started again %,d ms later", t.restartAfterMs) : "",
                        health);
                // the buyers' answers do not wait for the writer: its recovery is its restart → an order for every
                // SUCCESS
                if (part.equals("order-writer")) {
                    t.recovered(at, ServerFaults.ordersCatchUp(t));
                    continue;
                }
                t.pauseFrom(at);
                // the next kill only once this one is over for the buyers, so that each recovery is its own
                ChaosTarget.await(() -> t.load().answers().firstAnswerAfter(at) >= 0, 60);
            }
        };
    }

    /**
     * SIGSTOP of {@code part} for {@code pauseMs} — past its lease and its session: a frozen process, alive to the
     * kernel, silent to its group — then SIGCONT, {@code times} times, 0.5–3 s apart. Its peers must take its work over
     * and fence it, and once it goes on it must write nothing: besides the invariants, its writes after its work was
     * taken over are counted from the outcomes' deciding runs ({@link FrozenWrites}), none allowed. Recovery as the buyer
     * feels it: SIGSTOP → the first final answer to a purchase sent after it.
     */
    static ChaosScenario.Fault pause(String part, int times, long pauseMs) {
        return t -> {
            for (int k = 0; k < times; k++) {
                if (k > 0 && !t.pause(500, 3_000)) return;
                StreamInstances.Owner owner = part.equals(STREAM) ? owner(t) : new StreamInstances.Owner(part, null);
                String victim = owner.part();
                String instance = owner.instance();
                long at = System.nanoTime();
                long frozeAtMs = System.currentTimeMillis(); // the outcomes' deciding runs start on the wall clock
                LocalTime wall = LocalTime.now().truncatedTo(ChronoUnit.MILLIS); // to read the services' logs by
                t.pipeline.signal(victim, "STOP");
                try {
                    Thread.sleep(pauseMs); // the fault's length, not a wait for anything
                } finally {
                    t.pipeline.signal(victim, "CONT");
                }
                t.out.printf("    %s SIGSTOPped at %s for %,d ms, then SIGCONT%n", victim, wall, pauseMs);
                t.pauseFrom(at);
                if (part.equals(STREAM)) {
                    FrozenWrites.Count[] found = {null};
                    t.check(
                            () -> found[0] == null ? "the frozen instance's writes" : found[0].what(),
                            () -> (found[0] = FrozenWrites.count(FrozenWrites.read(t), frozeAtMs, instance))
                                    .violation());
                }
                ChaosTarget.await(() -> t.load().answers().firstAnswerAfter(at) >= 0, 60);
            }
        };
    }

    private static final String STREAM = "stock-stream";

    /**
     * The stream instance owning the sale's partition, its part and its instance id (asked for 10 s: a rebalance may be
     * under way), else the first part, its instance unknown.
     */
    private static StreamInstances.Owner owner(ChaosTarget t) throws Exception {
        StreamInstances.Owner[] owner = {null};
        ChaosTarget.await(
                () -> {
                    try {
                        owner[0] = StreamInstances.ownerOf(t.pipeline, t.settings, t.goods);
                    } catch (Exception e) {
                        owner[0] = null;
                    }
                    return owner[0] != null && owner[0].part() != null;
                },
                10);
        return owner[0] == null || owner[0].part() == null ? new StreamInstances.Owner(STREAM, null) : owner[0];
    }

    /**
     * A second stock-stream instance joins the group; while the group is rebalancing (not STABLE) the first one is
     * SIGKILLed and restarted. Recovery: SIGKILL → the restarted instance's /health 200; the second one must come up
     * too.
     */
    static ChaosScenario.Fault killDuringRebalance() {
        return t -> {
            String group = GroupIds.stockStream(t.settings);
            try (Admin admin = KafkaClients.admin(t.settings)) {
                String second = t.pipeline.startStreamInstance();
                if (ChaosTarget.await(() -> rebalancing(admin, group), 60) < 0)
                    throw new IllegalStateException("the group " + group + " never left STABLE after a second member");
                long at = System.nanoTime();
                t.recovered(at, t.pipeline.killAndRestart("stock-stream", 0));
                t.pipeline.awaitHealthy(second);
            }
        };
    }

    private static boolean rebalancing(Admin admin, String group) {
        try {
            GroupState state = admin.describeConsumerGroups(List.of(group))
                    .describedGroups()
                    .get(group)
                    .get(3, TimeUnit.SECONDS)
                    .groupState();
            return state == GroupState.PREPARING_REBALANCE || state == GroupState.COMPLETING_REBALANCE;
        } catch (Exception e) {
            return false;
        }
    }
}
