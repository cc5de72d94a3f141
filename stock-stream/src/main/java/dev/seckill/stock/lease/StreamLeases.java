package dev.seckill.stock.lease;

import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.kit.threads.Daemons;
import dev.seckill.stock.StockStreamSettings;
import dev.seckill.stock.decision.OwnLease;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * A stream instance's lease, and its watch over its peers' (docs/decisions.md, "A dead stream instance noticed in a
 * lease, not a session"). Every {@code renewEvery} a thread of its own sets this instance's lease in Redis ({@code PX
 * lease}) over a connection named after the instance ({@link LeaseConnection}); four times a renewal another reads the
 * peers' leases (the group's static members once a renewal) and a third the peers' connections. A peer whose connection
 * closed (its process ended) or whose lease stayed missing two renewals past its lapse (frozen, or cut off), as {@link
 * LeaseJudge} finds, is removed from the group with the Admin API, so the rebalance that moves its tasks to their
 * standbys starts at once instead of after its session, and its threads' transactions are fenced at once ({@link
 * PeerRemoval}, on the Admin client's thread: the Admin calls never hold a renewal up). A frozen peer that comes back is
 * a zombie Kafka has fenced: it can never commit again, it rejoins. Needs static membership and stable transactional
 * ids (the services' defaults). A graceful close deletes the lease (and the stream leaves its group as it closes).
 */
public final class StreamLeases implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamLeases.class);
    private static final Duration ASK = Duration.ofSeconds(2);

    private final UnifiedJedis redis;
    private final Admin admin;
    private final String self;
    private final String keyPrefix;
    private final long leaseMs;
    private final long renewMs;
    private final LeaseJudge judge;
    private final PeerRemoval removal;
    /** The named connection the lease is renewed over, and the one listing the peers'. */
    private final LeaseConnection connection;

    private final ScheduledExecutorService renewer = Daemons.scheduler("stock-stream-lease-renewal");
    private final ScheduledExecutorService watcher = Daemons.scheduler("stock-stream-lease-watch");
    private final ScheduledExecutorService connectionWatch = Daemons.scheduler("stock-stream-lease-connections");
    /** The group's static members by instance, and the client ids their leases name, as the last lease watch read. */
    private volatile Map<String, List<String>> members = Map.of();

    private volatile Map<String, Long> peerConnections = Map.of();
    /** When this instance's lease was last set, and the gaps between its renewals. */
    private final RenewalGaps renewals;

    private final LeaseEpoch epoch;

    /**
     * @param keyPrefix the Redis prefix of the stream's leases, {@code <redis prefix>stream:lease:<application id>:}
     * @param lease how long a lease lives without renewal
     * @param renewEvery how often it is renewed and the group read (at most a third of the lease); a peer's lease
     *     missing for two of them past its lapse is judged lapsed, read every quarter of one
     * @param connect makes connections under a name ({@link RedisConnections#namedConnections}): the one the lease is
     *     renewed over, {@code keyPrefix + self}, and the one that lists the peers'; null (a Redis Cluster): the lease is
     *     renewed through {@code redis}, and only its lapse tells of a dead peer
     */
    public StreamLeases(
            UnifiedJedis redis,
            Admin admin,
            String applicationId,
            String self,
            String keyPrefix,
            Duration lease,
            Duration renewEvery,
            MeterRegistry metrics,
            Function<String, Jedis> connect) {
        check(lease, renewEvery);
        this.redis = redis;
        this.admin = admin;
        this.self = self;
        this.keyPrefix = keyPrefix;
        this.leaseMs = lease.toMillis();
        this.renewMs = renewEvery.toMillis();
        // the lease, then two renewals: on two busy cores a live instance's renewals came 500-700 ms apart (a JVM
        // waiting 0.4 s for a safepoint; docs/reliability.md, "How late a live instance renews")
        this.judge = new LeaseJudge(self, 2 * renewMs);
        this.renewals = new RenewalGaps(leaseMs, leaseMs + 2 * renewMs, metrics);
        this.epoch = new LeaseEpoch(redis, keyPrefix, Math.max(60_000, 10 * leaseMs));
        this.connection = new LeaseConnection(redis, connect, keyPrefix, self);
        this.removal = new PeerRemoval(
                admin,
                applicationId,
                leaseMs,
                judge,
                Counter.builder("seckill_stream_peers_removed")
                        .description("stream peers removed from the group because their lease lapsed")
                        .register(metrics),
                Counter.builder("seckill_stream_peer_transactions_fenced")
                        .description("stream peers whose transactions were fenced because their lease lapsed")
                        .register(metrics),
                this::leaseOf);
    }

    /**
     * The instance's lease, started, as its settings say; null when leases are off ({@code SECKILL_STREAM_LEASE_MS=0}),
     * and, said in one line at start, without an instance id or static membership (what the lease would remove).
     */
    public static StreamLeases started(Settings settings, UnifiedJedis redis, String instance, MeterRegistry metrics) {
        int lease = settings.get(StockStreamSettings.LEASE_MS);
        if (lease <= 0) return null;
        Duration renew = Duration.ofMillis(settings.get(StockStreamSettings.LEASE_RENEW_MS));
        check(Duration.ofMillis(lease), renew); // before an Admin client is made
        if (instance.isBlank() || !settings.get(StockStreamSettings.STATIC_MEMBERSHIP)) {
            // a peer is removed from the group by its static member id: without one, a dead member waits for its
            // session
            LOG.info(
                    "no lease: {} (a dead instance is noticed after its session)",
                    instance.isBlank() ? "no instance id" : StockStreamSettings.STATIC_MEMBERSHIP.env() + "=false");
            return null;
        }
        String app = GroupIds.stockStream(settings);
        String keyPrefix = settings.redisPrefix() + "stream:lease:" + app + ":";
        Function<String, Jedis> connect = RedisConnections.namedConnections(settings);
        return new StreamLeases(
                        redis,
                        KafkaClients.admin(settings),
                        app,
                        instance,
                        keyPrefix,
                        Duration.ofMillis(lease),
                        renew,
                        metrics,
                        connect)
                .start();
    }

    private static void check(Duration lease, Duration renewEvery) {
        if (renewEvery.toMillis() < 1 || renewEvery.toMillis() * 3 > lease.toMillis())
            throw new IllegalArgumentException(StockStreamSettings.LEASE_MS.env() + " (" + lease.toMillis()
                    + ") must last at least three renewals of " + StockStreamSettings.LEASE_RENEW_MS.env() + " ("
                    + renewEvery.toMillis() + ", at least 1)");
    }

    /** Holds the lease from now (before the streams join: a restart's lease is there before its member is). */
    public StreamLeases start() {
        renew();
        renewer.scheduleWithFixedDelay(this::renew, renewMs, renewMs, TimeUnit.MILLISECONDS);
        // the leases and the connections are read every quarter renewal, so a lapse is seen within a quarter of one;
        // the group once a renewal (the watches between use the last members read)
        long every = Math.max(10, renewMs / 4);
        watcher.scheduleWithFixedDelay(this::watch, every, every, TimeUnit.MILLISECONDS);
        if (connection.lists())
            connectionWatch.scheduleWithFixedDelay(
                    new ConnectionWatch(
                            connection,
                            judge,
                            removal,
                            () -> members,
                            () -> peerConnections,
                            this::leaseOf,
                            this::renewedLately),
                    every,
                    every,
                    TimeUnit.MILLISECONDS);
        return this;
    }

    private void renew() {
        try {
            long sent = System.nanoTime();
            if (connection.renew(keyPrefix + self, leaseMs))
                renewals.renewed(sent, System.nanoTime(), connection.renewalsOver());
        } catch (RuntimeException e) {
            LOG.debug("lease not renewed: {}", e.getMessage());
        }
    }

    private void watch() {
        try {
            long now = System.nanoTime() / 1_000_000;
            boolean renewed = renewedLately();
            Map<String, List<String>> members = removal.staticMembers(now, renewMs);
            this.members = members;
            List<String> peers = new ArrayList<>(members.keySet());
            List<String> keys = new ArrayList<>(List.of(epoch.key()));
            peers.forEach(p -> keys.add(keyPrefix + p));
            List<String> values = redis.mget(keys.toArray(String[]::new));
            LeaseEpoch.Read read = epoch.watched(values.get(0), now);
            // Redis lost its memory (or this is the first watch of all): every lease may be missing for a while
            if (read != LeaseEpoch.Read.SAME) judge.redisForgot(now, 2 * leaseMs);
            if (read == LeaseEpoch.Read.FORGOT)
                LOG.warn("Redis forgot the stream's leases: no peer judged for {} ms", 2 * leaseMs);
            Map<String, Long> connections = ConnectionWatch.holders(peers, values.subList(1, values.size()));
            peerConnections = connections;
            for (String peer : judge.judge(now, members.keySet(), connections.keySet(), renewed))
                removal.remove(peer, members.get(peer), "holds no lease");
        } catch (RuntimeException e) {
            LOG.debug("lease watch skipped: {}", e.getMessage());
        }
    }

    private boolean renewedLately() {
        return renewals.renewedWithin(2 * renewMs);
    }

    /** The peer's lease as Redis holds it (the time of its last renewal), null when it holds none or Redis fails. */
    private String leaseOf(String peer) {
        try {
            return redis.get(keyPrefix + peer);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** This instance's own lease as its tasks ask after it: lapsed since they started, or not. */
    public OwnLease ownLease() {
        return renewals;
    }

    /** The lease ends with a graceful close: peers need not wait for it to lapse. */
    @Override
    public void close() {
        renewer.shutdownNow();
        watcher.shutdownNow();
        connectionWatch.shutdownNow();
        try {
            renewer.awaitTermination(1, TimeUnit.SECONDS); // no renewal after the lease is deleted
            watcher.awaitTermination(1, TimeUnit.SECONDS);
            connectionWatch.awaitTermination(1, TimeUnit.SECONDS); // no removal through a closed Admin client
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        admin.close(ASK);
        try {
            redis.del(keyPrefix + self);
        } catch (RuntimeException e) {
            LOG.debug("lease not deleted (it lapses): {}", e.getMessage());
        }
        connection.close();
    }
}
