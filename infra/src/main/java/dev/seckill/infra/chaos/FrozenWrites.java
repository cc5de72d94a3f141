package dev.seckill.infra.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.DecidedBy;
import dev.seckill.contracts.Json;
import dev.seckill.infra.harness.TopicRecords;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A frozen stream instance's writes after another run took its work over (zombie writes), counted in the sale's
 * committed outcomes, each of which names the instance and the run of the task that decided it ({@link DecidedBy}).
 *
 * <p>For a freeze at T of an instance (the group's owner of the sale's partition then; else the one that decided the
 * sale last before T), its runs that started before T are the ones it was frozen in. A commands partition is taken over
 * when a run that started after T (a survivor's, or the frozen instance's own once it rejoined) decides for it. A zombie
 * write is an outcome of a frozen run decided at or after the takeover of its commands partition, or lying after a
 * takeover's outcome for that commands partition in its topic partition (committed after it). Exactly-once's fencing is
 * what keeps that at none. With no takeover (nobody removed the instance: it went on in its own run) there is nothing to
 * count.
 */
final class FrozenWrites {
    /** One committed outcome: where it lies, the run that decided it (null: no header), when, the partition it answers. */
    record Write(String topic, int partition, long offset, DecidedBy by, long decidedAtMs, int commandsPartition) {}

    /**
     * What was found for one freeze: the frozen instance (null: nothing decided the sale before it), its runs' outcomes,
     * the first takeover after the freeze (ms after it; -1: none), the zombie writes, the outcomes naming no run, and
     * the outcomes decided before the freeze (by anyone).
     */
    record Count(
            String frozen,
            int frozenRunWrites,
            long takeoverAfterMs,
            List<Write> zombies,
            int unnamed,
            int decidedBefore) {
        /** Null when it held, else what broke. */
        String violation() {
            if (unnamed > 0) return unnamed + " outcomes name no deciding run (" + DecidedBy.HEADER + ")";
            if (frozen != null && frozenRunWrites == 0 && decidedBefore > 0)
                return frozen + " decided none of the " + decidedBefore + " outcomes decided before the freeze: the"
                        + " count would read nothing (is it the instance the outcomes name?)";
            if (!zombies.isEmpty())
                return zombies.size() + " outcomes of " + frozen + "'s frozen run committed after its work was taken"
                        + " over, the first " + zombies.get(0);
            return null;
        }

        String what() {
            if (frozen == null) return "no outcome decided the sale before the freeze";
            return String.format(
                    "%s's writes after its work was taken over: %d (of %,d outcomes its runs from before the freeze"
                            + " decided; %s)",
                    frozen,
                    zombies.size(),
                    frozenRunWrites,
                    takeoverAfterMs < 0
                            ? "nobody took over: it went on in its own run"
                            : String.format("taken over %,d ms after it froze", takeoverAfterMs));
        }
    }

    private FrozenWrites() {}

    /**
     * The count for a freeze at {@code frozeAtMs} (wall clock) of {@code instance} (null: the one that decided the sale
     * last before it) over the sale's committed outcomes.
     */
    static Count count(List<Write> writes, long frozeAtMs, String instance) {
        int unnamed = (int) writes.stream().filter(w -> w.by() == null).count();
        List<Write> named = writes.stream().filter(w -> w.by() != null).toList();
        String frozen = instance != null
                ? instance
                : named.stream()
                        .filter(w -> w.decidedAtMs() < frozeAtMs)
                        .max((a, b) -> Long.compare(a.decidedAtMs(), b.decidedAtMs()))
                        .map(w -> w.by().instance())
                        .orElse(null);
        int decidedBefore =
                (int) named.stream().filter(w -> w.decidedAtMs() < frozeAtMs).count();
        if (frozen == null) return new Count(null, 0, -1, List.of(), unnamed, decidedBefore);
        Map<Integer, Long> takenAt = new HashMap<>(); // commands partition → the first decision of a later run
        Map<String, Long> takenFrom = new HashMap<>(); // its outcomes' topic partition → a later run's first offset
        for (Write w : named)
            if (w.by().runStartMs() >= frozeAtMs) {
                takenAt.merge(w.commandsPartition(), w.decidedAtMs(), Math::min);
                takenFrom.merge(lane(w), w.offset(), Math::min);
            }
        List<Write> frozenRun = named.stream()
                .filter(w -> w.by().instance().equals(frozen) && w.by().runStartMs() < frozeAtMs)
                .toList();
        List<Write> zombies = new ArrayList<>();
        for (Write w : frozenRun) {
            Long at = takenAt.get(w.commandsPartition());
            Long from = takenFrom.get(lane(w));
            if ((at != null && w.decidedAtMs() >= at) || (from != null && w.offset() > from)) zombies.add(w);
        }
        long takeover =
                takenAt.values().stream().mapToLong(Long::longValue).min().orElse(-1);
        return new Count(
                frozen, frozenRun.size(), takeover < 0 ? -1 : takeover - frozeAtMs, zombies, unnamed, decidedBefore);
    }

    /** A commands partition's outcomes in one topic partition (a bucketed sale's buckets share their goods' one). */
    private static String lane(Write w) {
        return w.topic() + "-" + w.partition() + "/" + w.commandsPartition();
    }

    /** The sale's committed outcomes (read_committed), in each partition's order. */
    static List<Write> read(ChaosTarget t) throws IOException {
        List<Write> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : TopicRecords.read(t.settings, t.topics.outcomes())) {
            JsonNode n = Json.MAPPER.readTree(r.value());
            if (n.path("goodsId").asLong() != t.goods) continue;
            out.add(new Write(
                    r.topic(),
                    r.partition(),
                    r.offset(),
                    DecidedBy.of(r.headers()),
                    Instant.parse(n.path("decidedAt").asText()).toEpochMilli(),
                    n.path("partition").asInt()));
        }
        return out;
    }
}
