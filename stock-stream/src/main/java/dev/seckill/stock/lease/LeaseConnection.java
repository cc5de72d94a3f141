package dev.seckill.stock.lease;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/**
 * The connection a stream instance renews its lease over, named {@code <lease key prefix><instance>} in Redis, and
 * what a second one sees of its peers' (docs/decisions.md, "A dead stream instance noticed in a lease, not a session").
 * A lease's value is {@code <epoch ms>/<client id>}: the time of the renewal and the Redis client id of the connection
 * it came over. A process that dies has its sockets closed by the kernel at once, so that client leaves
 * {@code CLIENT LIST ID …} (which lists only the peers' connections: no cost in the other clients) while its lease still
 * has hundreds of milliseconds to live: a peer's connection listed on the previous look and gone now is a dead process
 * ({@link #vanishedPeers}). A frozen process keeps its connection: the lease covers it. Only a standalone Redis (a
 * cluster's nodes list their own clients; the lease alone covers it there).
 *
 * <p>What a vanished connection is trusted for: the listing connection must be the same on both looks (one client id):
 * a Redis that restarted, or a connection of this instance's that broke, closes every connection — live peers' too — so
 * a look over a new connection compares nothing and only remembers what it saw. A renewal and a listing never wait for
 * each other: two connections, a lock each.
 */
final class LeaseConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseConnection.class);

    private final UnifiedJedis shared;
    private final Link renewals;
    private final Link listing;
    private final String namePrefix;
    /** The listing connection (its count of connections made) on the last look, and the peers (→ client id) it found. */
    private long listedOver = -1;

    private Map<String, Long> listed = Map.of();
    private volatile boolean listingRefused;

    /**
     * @param shared the service's client, renewing the lease when Redis refuses a named connection
     * @param connectAs makes a connection under the name it is given (it may throw: Redis unreachable); null with a
     *     Redis Cluster
     * @param namePrefix what every instance's connection name starts with, the instance after it
     * @param self this instance
     */
    LeaseConnection(UnifiedJedis shared, Function<String, Jedis> connectAs, String namePrefix, String self) {
        this.shared = shared;
        this.renewals = new Link(() -> connectAs.apply(namePrefix + self));
        this.listing = new Link(() -> connectAs.apply(namePrefix + self + "/watch"));
        this.namePrefix = namePrefix;
        // a Redis Cluster (no connections of one's own to list), or a name Redis would not take: the lease alone
        if (connectAs == null || !nameable(namePrefix + self)) {
            renewals.refused = true;
            listingRefused = true;
        }
    }

    /** The renewal connection's number (the connections made for renewals so far; 0 through the shared client). */
    long renewalsOver() {
        synchronized (renewals) {
            return renewals.made;
        }
    }

    /** Whether the peers' connections are listed at all (else only their leases tell). */
    boolean lists() {
        return !listingRefused;
    }

    /** A client name Redis accepts: no spaces, no control characters, nothing beyond ASCII. */
    static boolean nameable(String name) {
        return !name.isEmpty() && name.chars().allMatch(c -> c > 32 && c < 127);
    }

    /** The client id a lease's value names ({@code <ms>/<id>}); -1 for a value without one. */
    static long clientIdOf(String leaseValue) {
        int slash = leaseValue == null ? -1 : leaseValue.indexOf('/');
        try {
            return slash < 0 ? -1 : Long.parseLong(leaseValue.substring(slash + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Sets the lease ({@code SET key <now>/<client id> PX ms}) over the named connection, made again and tried once more
     * at once when it broke (a reset connection costs no renewal); true when Redis said OK. A Redis that refuses the
     * named connection (an ACL without {@code CLIENT SETNAME} or {@code CLIENT ID}) has the lease renewed through
     * {@code shared} from then on, said once: its peers judge it by its lease alone.
     */
    boolean renew(String key, long leaseMs) {
        synchronized (renewals) {
            if (!renewals.refused)
                try {
                    try {
                        return renewOnce(key, leaseMs);
                    } catch (JedisConnectionException e) {
                        renewals.close();
                        return renewOnce(key, leaseMs);
                    }
                } catch (JedisDataException e) {
                    renewals.refused = true;
                    renewals.close();
                    LOG.warn("Redis refuses the lease's named connection ({}): renewed without it", e.getMessage());
                }
            return "OK"
                    .equals(shared.set(
                            key,
                            Long.toString(System.currentTimeMillis()),
                            SetParams.setParams().px(leaseMs)));
        }
    }

    private boolean renewOnce(String key, long leaseMs) {
        Jedis j = renewals.get();
        String value = System.currentTimeMillis() + "/" + renewals.clientId;
        return "OK".equals(j.set(key, value, SetParams.setParams().px(leaseMs)));
    }

    /**
     * Of {@code peers} (instance → the client id its lease names), those whose connection the previous look listed and
     * this one does not, over the same listing connection; empty on the first look over a connection, and when Redis
     * refuses {@code CLIENT LIST} (an ACL, a managed Redis that renamed it: said once, the lease alone judges then).
     */
    Set<String> vanishedPeers(Map<String, Long> peers) {
        if (listingRefused) return Set.of();
        Map<String, Long> now;
        long over;
        synchronized (listing) {
            Jedis j = listing.get();
            over = listing.made;
            long[] ids = peers.values().stream()
                    .filter(id -> id >= 0)
                    .mapToLong(Long::longValue)
                    .toArray();
            try {
                now = ids.length == 0 ? Map.of() : connectedPeers(j.clientList(ids), namePrefix);
            } catch (JedisDataException e) {
                if (!refusal(e)) throw e;
                listingRefused = true;
                LOG.warn(
                        "Redis refuses CLIENT LIST ({}): a dead peer is noticed when its lease lapses", e.getMessage());
                return Set.of();
            }
        }
        Set<String> vanished = new HashSet<>();
        if (listedOver == over)
            listed.forEach((peer, id) -> {
                if (!now.containsKey(peer) && id.equals(peers.get(peer))) vanished.add(peer);
            });
        listed = now;
        listedOver = over;
        return vanished;
    }

    /** A refusal for good (no right to the command, or no such command), not a passing error such as BUSY. */
    static boolean refusal(JedisDataException e) {
        String m = String.valueOf(e.getMessage());
        return m.startsWith("NOPERM")
                || m.startsWith("ERR unknown command")
                || m.contains("unknown subcommand")
                || m.startsWith("ERR syntax error"); // CLIENT LIST ID: Redis 6.2 and later
    }

    /** The instances {@code CLIENT LIST}'s lines name under {@code namePrefix}, with their client ids. */
    static Map<String, Long> connectedPeers(String clientList, String namePrefix) {
        Map<String, Long> out = new HashMap<>();
        String field = " name=" + namePrefix;
        for (String line : clientList.split("\n")) {
            int at = (" " + line).indexOf(field);
            if (at < 0 || !line.startsWith("id=")) continue;
            int from = at - 1 + field.length();
            int end = line.indexOf(' ', from);
            String instance = end < 0 ? line.substring(from).trim() : line.substring(from, end);
            int idEnd = line.indexOf(' ');
            try {
                if (!instance.isEmpty() && idEnd > 3) out.put(instance, Long.parseLong(line.substring(3, idEnd)));
            } catch (NumberFormatException e) {
                LOG.debug("a CLIENT LIST line without a client id: {}", line);
            }
        }
        return out;
    }

    @Override
    public void close() {
        synchronized (renewals) {
            renewals.closed = true;
            renewals.close();
        }
        synchronized (listing) {
            listing.closed = true;
            listing.close();
        }
    }

    /** One connection, made when needed and again after it broke (never once closed for good); its client id. */
    private static final class Link {
        private final Supplier<Jedis> connect;
        private Jedis jedis;
        private long clientId = -1;
        /** How many connections this link made: a look over another one than the last compares nothing. */
        private long made;

        private boolean closed;
        /** Redis refused this connection (a data error, not a broken socket): not made again. */
        private boolean refused;

        Link(Supplier<Jedis> connect) {
            this.connect = connect;
        }

        Jedis get() {
            if (closed) throw new IllegalStateException("the lease connection is closed");
            if (jedis != null && !jedis.isBroken()) return jedis;
            close();
            Jedis made = connect.get();
            try {
                clientId = made.clientId();
            } catch (RuntimeException e) {
                made.close();
                throw e;
            }
            jedis = made;
            this.made++;
            return jedis;
        }

        void close() {
            if (jedis == null) return;
            try {
                jedis.close();
            } catch (RuntimeException e) {
                LOG.debug("lease connection not closed cleanly: {}", e.getMessage());
            }
            jedis = null;
            clientId = -1;
        }
    }
}
