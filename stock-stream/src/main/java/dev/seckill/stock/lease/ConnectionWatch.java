package dev.seckill.stock.lease;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link StreamLeases}' quick look, four times a renewal: the peers' lease connections ({@link LeaseConnection}), and a
 * peer whose connection closed removed and fenced at once ({@link LeaseJudge#judgeVanished}, {@link PeerRemoval}) — if
 * its lease still names that connection: a graceful stop deletes its lease first, a reconnect renews over another. No
 * group read here: the members and the client ids their leases name are the last lease watch's (at most one renewal
 * old).
 */
final class ConnectionWatch implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamLeases.class);

    private final LeaseConnection connection;
    private final LeaseJudge judge;
    private final PeerRemoval removal;
    private final Supplier<Map<String, List<String>>> members;
    private final Supplier<Map<String, Long>> peerConnections;
    private final Function<String, String> leaseOf;
    private final BooleanSupplier renewedLately;

    ConnectionWatch(
            LeaseConnection connection,
            LeaseJudge judge,
            PeerRemoval removal,
            Supplier<Map<String, List<String>>> members,
            Supplier<Map<String, Long>> peerConnections,
            Function<String, String> leaseOf,
            BooleanSupplier renewedLately) {
        this.connection = connection;
        this.judge = judge;
        this.removal = removal;
        this.members = members;
        this.peerConnections = peerConnections;
        this.leaseOf = leaseOf;
        this.renewedLately = renewedLately;
    }

    /** Of {@code peers}, those {@code leases} (their values in order, null: none) hold, with the client id named. */
    static Map<String, Long> holders(List<String> peers, List<String> leases) {
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < peers.size(); i++)
            if (leases.get(i) != null) out.put(peers.get(i), LeaseConnection.clientIdOf(leases.get(i)));
        return out;
    }

    @Override
    public void run() {
        try {
            Map<String, Long> connections = peerConnections.get();
            Set<String> dead = new HashSet<>();
            for (String peer : connection.vanishedPeers(connections)) {
                long named = LeaseConnection.clientIdOf(leaseOf.apply(peer));
                if (named >= 0 && Long.valueOf(named).equals(connections.get(peer))) dead.add(peer);
            }
            if (dead.isEmpty()) return;
            Map<String, List<String>> known = members.get();
            long now = System.nanoTime() / 1_000_000;
            for (String peer : judge.judgeVanished(now, known.keySet(), dead, renewedLately.getAsBoolean()))
                removal.remove(peer, known.get(peer), "closed its Redis connection (its process ended)");
        } catch (RuntimeException e) {
            LOG.debug("connection watch skipped: {}", e.getMessage());
        }
    }
}
