package dev.seckill.system.containers;

import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.StreamGroup;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;

/**
 * A stream container of a compose project killed mid-sale while another runs: when the sale's first purchase was
 * decided after the kill (read_committed: a decision in the dead instance's open transaction is never seen), and which
 * container owned the sale's partition then. The killed container is started again afterwards (compose's restart
 * policy may have done so already).
 */
final class StreamFailover {
    private final ComposeProject project;
    private final List<String> streams;
    private final StreamGroup group;
    private final OutcomeLog outcomes;
    private final long goods;

    final CompletableFuture<Void> done = new CompletableFuture<>();
    volatile String killed;
    volatile String survivor;
    volatile int answeredAtKill = -1;
    volatile long firstDecidedAfterMs = -1;
    volatile String ownerThen;

    StreamFailover(ComposeProject project, List<String> streams, StreamGroup group, OutcomeLog outcomes, long goods) {
        this.project = project;
        this.streams = List.copyOf(streams);
        this.group = group;
        this.outcomes = outcomes;
        this.goods = goods;
    }

    /**
     * The service whose container owns the goods' partition, once one does: a cooperative rebalance leaves a moving
     * partition with no owner for a moment, the group STABLE meanwhile.
     */
    String awaitOwner() {
        return await("an owner of the sale's partition")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .ignoreExceptions()
                .until(this::ownerNow, Objects::nonNull);
    }

    /** The service whose container owns the goods' partition now; null during a rebalance. */
    String ownerNow() throws Exception {
        String instance = group.ownerOf(goods);
        if (instance == null) return null;
        // an instance id is <host name>-<metrics port>, and compose.yaml names each container's host after its service
        for (String service : streams) if (instance.endsWith("-" + service + "-9402")) return service;
        throw new AssertionError("a stream instance of no compose service: " + instance);
    }

    /**
     * SIGKILLs the container owning the sale's partition (asked at once before: the one a kill must hit to be felt),
     * waits for the sale's first decision after it, then starts the container again.
     */
    void killOwner(IntSupplier answered) {
        try {
            String service = awaitOwner();
            killed = service;
            survivor =
                    streams.stream().filter(s -> !s.equals(service)).findFirst().orElseThrow();
            project.kill(service);
            Instant killedAt = Instant.now(); // the signal landed before podman kill returned
            answeredAtKill = answered.getAsInt();
            await(service + " stopped")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> !project.state(service).equals("running"));
            Instant first = await("a purchase of the sale decided after the kill")
                    .atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> firstDecidedAfter(killedAt), Objects::nonNull);
            ownerThen = awaitOwner();
            firstDecidedAfterMs = Duration.between(killedAt, first).toMillis();
            if (!project.state(service).equals("running")) project.start(service);
            done.complete(null);
        } catch (Throwable e) {
            done.completeExceptionally(e);
        }
    }

    private Instant firstDecidedAfter(Instant killedAt) {
        return outcomes.snapshot().stream()
                .filter(o -> o.goodsId() == goods && o.decidedAt().isAfter(killedAt))
                .map(Outcome::decidedAt)
                .min(Instant::compareTo)
                .orElse(null);
    }
}
