package dev.seckill.stock.lease;

import io.micrometer.core.instrument.Counter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link StreamLeases} reads of the stream's group and does to a peer judged dead: its static members, removed,
 * its transactions fenced.
 */
final class PeerRemoval {
    private static final Logger LOG = LoggerFactory.getLogger(StreamLeases.class);

    private final Admin admin;
    private final String applicationId;
    private final long leaseMs;
    private final LeaseJudge judge;
    private final Counter removed;
    private final Counter fenced;
    private final Function<String, String> leaseOf;

    PeerRemoval(
            Admin admin,
            String applicationId,
            long leaseMs,
            LeaseJudge judge,
            Counter removed,
            Counter fenced,
            Function<String, String> leaseOf) {
        this.admin = admin;
        this.applicationId = applicationId;
        this.leaseMs = leaseMs;
        this.judge = judge;
        this.removed = removed;
        this.fenced = fenced;
        this.leaseOf = leaseOf;
    }

    /**
     * Removes the peer's static members and fences its threads' transactions, on the Admin client's thread: a removal
     * that fails is judged again; the fencing runs whatever the removal answered (a member its session ended is gone
     * already, its transaction perhaps open still), unless the peer renewed its lease since it was judged (its
     * restart, whose own initialisation fenced its predecessor; a peer whose connection closed still holds the lease it
     * last renewed, unchanged).
     */
    void remove(String peer, List<String> instanceIds, String why) {
        long t0 = System.nanoTime();
        String judged = leaseOf.apply(peer);
        admin.removeMembersFromConsumerGroup(
                        applicationId,
                        new RemoveMembersFromConsumerGroupOptions(
                                instanceIds.stream().map(MemberToRemove::new).toList()))
                .all()
                .whenComplete((ok, error) -> {
                    long removedMs = (System.nanoTime() - t0) / 1_000_000;
                    if (error != null) {
                        judge.removalFailed(peer);
                        LOG.info("stream instance {}'s members not removed (judged again): {}", peer, error.toString());
                    } else removed.increment();
                    String lease = leaseOf.apply(peer);
                    if (lease != null && !lease.equals(judged)) return; // renewed since: its restart
                    // its threads' transactional ids are <application id>-<instance>-<n> (StableTransactionalIds),
                    // their static members <instance>-<n>
                    List<String> transactions = instanceIds.stream()
                            .map(id -> applicationId + "-" + id)
                            .toList();
                    admin.fenceProducers(transactions).all().whenComplete((ok2, fenceError) -> {
                        if (fenceError == null) fenced.increment();
                        LOG.warn(
                                "stream instance {} {} ({} ms lease): its members {} {} in {} ms, its"
                                        + " transactions {} in {} ms; its tasks move now",
                                peer,
                                why,
                                leaseMs,
                                instanceIds,
                                error == null ? "removed from the group" : "not removed",
                                removedMs,
                                fenceError == null ? "fenced" : "not fenced (" + fenceError + ")",
                                (System.nanoTime() - t0) / 1_000_000 - removedMs);
                    });
                });
    }

    /** The group's static members by instance: each stream thread is {@code <instance>-<n>}. */
    Map<String, List<String>> staticMembers() {
        Map<String, List<String>> out = new HashMap<>();
        try {
            for (MemberDescription m : admin.describeConsumerGroups(List.of(applicationId))
                    .describedGroups()
                    .get(applicationId)
                    .get(leaseMs, TimeUnit.MILLISECONDS) // slower than a lease: this watch is skipped
                    .members())
                m.groupInstanceId()
                        .ifPresent(id -> out.computeIfAbsent(LeaseJudge.instanceOf(id), k -> new ArrayList<>())
                                .add(id));
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof GroupIdNotFoundException))
                LOG.debug("group not read: {}", e.getCause().toString());
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            LOG.debug("group not read: {}", e.toString());
        }
        return out;
    }
}
