package dev.seckill.stock.lease;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which peers to drop from the stream's group, from what one watch saw (docs/decisions.md, "A dead stream instance
 * noticed in a lease, not a session"): a peer is dropped when its lease has been missing from Redis for at least
 * {@code graceMs} on consecutive watches while it is still a member, or at once when its lease connection closed (its
 * process died: {@link LeaseConnection}), and only a peer whose lease this judge saw
 * held at least once (an instance running without leases is never dropped). Nothing is judged on a watch whose own
 * renewal failed (Redis unreachable), nor for {@code quietMs} after Redis was seen to have lost its memory
 * ({@link #redisForgot}: restarted empty, or a replica promoted without the leases) — every lease is missing then,
 * live peers' too, until they reconnect and renew; a peer whose lease is seen again is forgiven, and one whose removal
 * failed is judged again ({@link #removalFailed}). No clock and no I/O here: the caller reads and acts.
 */
public final class LeaseJudge {
    private final String self;
    private final long graceMs;
    /** Peers whose lease was seen held. */
    private final Set<String> leased = new HashSet<>();
    /** Peer → when its lease was first seen missing, while it stays missing. */
    private final Map<String, Long> missingSince = new HashMap<>();
    /** Until when nothing is judged (Redis lost its memory); {@link Long#MIN_VALUE}: no such pause. */
    private long quietUntil = Long.MIN_VALUE;

    /**
     * @param self this instance (never judged)
     * @param graceMs how long a lease must stay missing before its peer is dropped (a pause shorter than this, on
     *     top of the lease's own lifetime, drops nothing)
     */
    public LeaseJudge(String self, long graceMs) {
        if (graceMs < 0) throw new IllegalArgumentException("graceMs must be at least 0, got " + graceMs);
        this.self = self;
        this.graceMs = graceMs;
    }

    /**
     * One watch at {@code now}: the instances with a member in the group, those among them whose lease Redis holds,
     * and whether this instance's own renewal just succeeded. Returns the peers to drop now (each once per absence).
     */
    public synchronized Set<String> judge(long now, Set<String> members, Set<String> holding, boolean ownRenewed) {
        for (String peer : holding) {
            if (!peer.equals(self)) leased.add(peer);
            missingSince.remove(peer);
        }
        missingSince.keySet().retainAll(members);
        if (!ownRenewed || now < quietUntil) {
            missingSince.clear(); // Redis cannot be read as the truth now: start every absence again
            return Set.of();
        }
        Set<String> drop = new TreeSet<>();
        for (String peer : members) {
            if (peer.equals(self) || holding.contains(peer) || !leased.contains(peer)) continue;
            long since = missingSince.computeIfAbsent(peer, p -> now);
            if (now - since >= graceMs) drop.add(peer);
        }
        for (String peer : drop) {
            missingSince.remove(peer);
            leased.remove(peer); // dropped: judged again only once it holds a lease again (its restart)
        }
        return drop;
    }

    /**
     * The peers whose lease connection closed since the last look ({@link LeaseConnection}): a process that died,
     * dropped at once, its lease not waited for — a member whose lease this judge saw held, under the same guards as
     * {@link #judge} (this instance's own renewal recent, Redis not just seen to have lost its memory).
     */
    public synchronized Set<String> judgeVanished(
            long now, Set<String> members, Set<String> vanished, boolean ownRenewed) {
        if (!ownRenewed || now < quietUntil) return Set.of();
        Set<String> drop = new TreeSet<>();
        for (String peer : vanished)
            if (!peer.equals(self) && members.contains(peer) && leased.remove(peer)) {
                missingSince.remove(peer);
                drop.add(peer); // judged again only once it holds a lease again (its restart)
            }
        return drop;
    }

    /**
     * Redis was seen to have lost its memory at {@code now}: every absence starts again, and nothing is judged for
     * {@code quietMs} (the peers reconnect and renew meanwhile).
     */
    public synchronized void redisForgot(long now, long quietMs) {
        missingSince.clear();
        quietUntil = now + quietMs;
    }

    /** The removal of a dropped peer failed: it is judged again, its absence counted from the next watch. */
    public synchronized void removalFailed(String peer) {
        leased.add(peer);
        missingSince.remove(peer);
    }

    /** The instance a stream thread's static member id names: {@code <instance>-<thread index>}. */
    public static String instanceOf(String groupInstanceId) {
        int dash = groupInstanceId.lastIndexOf('-');
        return dash > 0 && groupInstanceId.substring(dash + 1).chars().allMatch(Character::isDigit)
                ? groupInstanceId.substring(0, dash)
                : groupInstanceId;
    }

    /** The peers whose lease was seen held and not dropped since (for the tests and the log). */
    public synchronized List<String> leasedPeers() {
        return List.copyOf(new TreeSet<>(leased));
    }
}
