package dev.seckill.stock.lease;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.SetParams;

/**
 * The connection a stream instance renews its lease over, named {@code <lease key prefix><instance>} in Redis, and what
 * it sees of its peers' (docs/decisions.md, "A dead stream instance noticed in a lease, not a session"). A process that
 * dies has its sockets closed by the kernel at once, so its named connection leaves {@code CLIENT LIST} within a watch
 * while its lease still has hundreds of milliseconds to live: a peer's connection that was listed on the previous
 * watch and is gone now is a dead process ({@link #vanishedPeers}). A frozen process keeps its connection: the lease
 * covers it. Only a standalone Redis (a cluster's nodes list their own clients; the lease alone covers it there).
 *
 * <p>What a vanished connection is trusted for: this connection itself must be the same on both watches (one client
 * id): a Redis that restarted, or a connection of this instance's that broke, closes every connection — live peers'
 * too — so a watch over a new connection compares nothing and only remembers what it saw. One connection, its calls in
 * turn: a renewal, a listing, each a single round trip.
 */
final class LeaseConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseConnection.class);

    private final Supplier<Jedis> connect;
    private final String namePrefix;
    private Jedis jedis;
    /** This connection's client id, read when it was made; -1: none yet. */
    private long clientId = -1;
    /** The client id the last listing was made over, and the peers it listed connected. */
    private long listedOver = -1;

    private Set<String> listed = Set.of();
    private boolean listingRefused;

    /**
     * @param connect makes a connection named {@code namePrefix + <this instance>} (it may throw: Redis unreachable)
     * @param namePrefix what every instance's connection name starts with, the instance after it
     */
    LeaseConnection(Supplier<Jedis> connect, String namePrefix) {
        this.connect = connect;
        this.namePrefix = namePrefix;
    }

    /** A client name Redis accepts: no spaces, no control characters, nothing beyond ASCII. */
    static boolean nameable(String name) {
        return !name.isEmpty() && name.chars().allMatch(c -> c > 32 && c < 127);
    }

    /** Sets the lease ({@code SET key value PX ms}): true when Redis said OK. */
    synchronized boolean renew(String key, String value, long leaseMs) {
        return "OK".equals(call().set(key, value, SetParams.setParams().px(leaseMs)));
    }

    /**
     * The peers whose connection the previous watch listed and this one does not, over the same connection; empty on
     * the first watch over a connection, and when Redis refuses {@code CLIENT LIST} (an ACL, a managed Redis that
     * renamed it: said once, the lease alone judges then).
     */
    synchronized Set<String> vanishedPeers() {
        if (listingRefused) return Set.of();
        String list;
        try {
            list = call().clientList(ClientType.NORMAL);
        } catch (redis.clients.jedis.exceptions.JedisDataException e) {
            listingRefused = true;
            LOG.warn("Redis refuses CLIENT LIST ({}): a dead peer is noticed when its lease lapses", e.getMessage());
            return Set.of();
        }
        Set<String> now = connectedPeers(list, namePrefix);
        Set<String> vanished = new HashSet<>();
        if (listedOver == clientId) for (String peer : listed) if (!now.contains(peer)) vanished.add(peer);
        listed = now;
        listedOver = clientId;
        return vanished;
    }

    /** The instances {@code CLIENT LIST}'s lines name under {@code namePrefix} ({@code ... name=<prefix><instance> ...}). */
    static Set<String> connectedPeers(String clientList, String namePrefix) {
        Set<String> out = new HashSet<>();
        String field = " name=" + namePrefix;
        for (String line : clientList.split("\n")) {
            int at = (" " + line).indexOf(field);
            if (at < 0) continue;
            int from = at - 1 + field.length();
            int end = line.indexOf(' ', from);
            String instance = end < 0 ? line.substring(from).trim() : line.substring(from, end);
            if (!instance.isEmpty()) out.add(instance);
        }
        return out;
    }

    /** The connection, made (and its id read) when there is none or the last one broke. */
    private Jedis call() {
        if (jedis != null && !jedis.isBroken()) return jedis;
        close();
        listedOver = -1; // a new connection: Redis may have restarted, its client ids counting again
        jedis = connect.get();
        try {
            clientId = jedis.clientId();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        return jedis;
    }

    @Override
    public synchronized void close() {
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
