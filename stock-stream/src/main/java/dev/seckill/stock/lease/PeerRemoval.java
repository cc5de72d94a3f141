package dev.seckill.stock.lease;

import io.micrometer.core.instrument.Counter;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What {@link StreamLeases} does to a peer whose lease lapsed: its members removed, its transactions fenced. */
final class PeerRemoval {
    private static final Logger LOG = LoggerFactory.getLogger(StreamLeases.class);

    private final Admin admin;
    private final String applicationId;
    private final long leaseMs;
    private final LeaseJudge judge;
    private final Counter removed;
    private final Counter fenced;
    private final Predicate<String> holdsLease;

    PeerRemoval(
            Admin admin,
            String applicationId,
            long leaseMs,
            LeaseJudge judge,
            Counter removed,
            Counter fenced,
            Predicate<String> holdsLease) {
        this.admin = admin;
        this.applicationId = applicationId;
        this.leaseMs = leaseMs;
        this.judge = judge;
        this.removed = removed;
        this.fenced = fenced;
        this.holdsLease = holdsLease;
    }

    /**
     * Removes the peer's static members and fences its threads' transactions, on the Admin client's thread: a removal
     * that fails is judged again; the fencing runs whatever the removal answered (a member its session ended is gone
     * already, its transaction perhaps open still), unless the peer holds a lease again (its restart, whose own
     * initialisation fenced its predecessor).
     */
    void remove(String peer, List<String> instanceIds) {
        long t0 = System.nanoTime();
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
                    if (holdsLease.test(peer)) return;
                    // its threads' transactional ids are <application id>-<instance>-<n> (StableTransactionalIds),
                    // their static members <instance>-<n>
                    List<String> transactions = instanceIds.stream()
                            .map(id -> applicationId + "-" + id)
                            .toList();
                    admin.fenceProducers(transactions).all().whenComplete((ok2, fenceError) -> {
                        if (fenceError == null) fenced.increment();
                        LOG.warn(
                                "stream instance {} holds no lease ({} ms lease): its members {} {} in {} ms, its"
                                        + " transactions {} in {} ms; its tasks move now",
                                peer,
                                leaseMs,
                                instanceIds,
                                error == null ? "removed from the group" : "not removed",
                                removedMs,
                                fenceError == null ? "fenced" : "not fenced (" + fenceError + ")",
                                (System.nanoTime() - t0) / 1_000_000 - removedMs);
                    });
                });
    }
}
