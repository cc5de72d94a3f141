package dev.seckill.stock.lease;

import io.micrometer.core.instrument.Counter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
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
    /** The members the last group read found (none before the first); a read in flight; when the last one started. */
    private volatile Map<String, List<String>> membersRead = Map.of();

    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile long readStartedAt;
    /** When the read the members come from started (ms, as the watch's clock); a read that failed leaves it. */
    private volatile long readAt;

    private boolean everRead;

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

    /**
     * The group's static members by instance (each stream thread is {@code <instance>-<n>}) as the last read found them,
     * a new read started when the last started {@code maxAgeMs} before {@code nowMs}: asynchronous, so a group
     * coordinator slow to answer (a rebalance on busy cores) never holds the lease reads up. A read that fails keeps
     * what the last one found; a group that does not exist has no members.
     */
    Map<String, List<String>> staticMembers(long nowMs, long maxAgeMs) {
        // a read that never answered is given up after two leases (its timeout is one): another starts
        if (reading.get() && nowMs - readStartedAt > 2 * leaseMs) reading.set(false);
        if ((!everRead || nowMs - readStartedAt >= maxAgeMs) && reading.compareAndSet(false, true)) {
            everRead = true;
            readStartedAt = nowMs;
            try {
                admin.describeConsumerGroups(List.of(applicationId), new DescribeConsumerGroupsOptions().timeoutMs((int)
                                        Math.max(leaseMs, 1_000)))
                        .describedGroups()
                        .get(applicationId)
                        .whenComplete((group, error) -> {
                            try {
                                read(group, error);
                            } finally {
                                reading.set(false);
                            }
                        });
            } catch (RuntimeException e) {
                reading.set(false);
                LOG.debug("group not read: {}", e.toString());
            }
        }
        // members last read more than two leases ago are not trusted: nobody is judged until a read answers
        return nowMs - readAt <= 2 * leaseMs ? membersRead : Map.of();
    }

    private void read(ConsumerGroupDescription group, Throwable error) {
        Throwable cause = error != null && error.getCause() != null ? error.getCause() : error;
        if (error == null) membersRead = byInstance(group.members());
        else if (error instanceof GroupIdNotFoundException || cause instanceof GroupIdNotFoundException)
            membersRead = Map.of();
        else {
            LOG.debug("group not read: {}", error.toString());
            return;
        }
        readAt = readStartedAt;
    }

    private static Map<String, List<String>> byInstance(Collection<MemberDescription> members) {
        Map<String, List<String>> out = new HashMap<>();
        for (MemberDescription m : members)
            m.groupInstanceId()
                    .ifPresent(id -> out.computeIfAbsent(LeaseJudge.instanceOf(id), k -> new ArrayList<>())
                            .add(id));
        return out;
    }
}
