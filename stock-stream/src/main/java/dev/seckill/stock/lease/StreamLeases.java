package dev.seckill.stock.lease;

import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.stock.StockStreamSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;

/**
 * A stream instance's lease, and its watch over its peers' (docs/decisions.md, "A dead stream instance noticed in a
 * lease, not a session"). Every {@code renewEvery} this instance sets its lease in Redis ({@code PX lease}) and reads
 * the group's static members and their leases; a peer whose lease {@link LeaseJudge} finds gone is removed from the
 * group with the Admin API, so the rebalance that moves its tasks to their standbys starts at once instead of after
 * its session, and its threads' transactions are fenced at once (their ids follow from the instance:
 * {@code StableTransactionalIds}), so nothing it left open holds the outcome topics back; a paused peer that comes back
 * is a zombie Kafka has fenced: it can never commit again, it rejoins. Needs static membership (the removal names
 * members by their {@code group.instance.id}) and stable transactional ids (the services' default). A graceful close deletes the lease, and leaves the group as Streams does.
 */
public final class StreamLeases implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamLeases.class);
    private static final Duration ASK = Duration.ofSeconds(2);

    private final UnifiedJedis redis;
    private final Admin admin;
    private final String applicationId;
    private final String self;
    private final String keyPrefix;
    private final long leaseMs;
    private final long renewMs;
    private final LeaseJudge judge;
    private final Counter removed;
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stock-stream-lease");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param keyPrefix the Redis prefix of the stream's leases, {@code <redis prefix>stream:lease:<application id>:}
     * @param lease how long a lease lives without renewal
     * @param renewEvery how often it is renewed and the peers' read (at most a third of the lease)
     */
    public StreamLeases(
            UnifiedJedis redis,
            Admin admin,
            String applicationId,
            String self,
            String keyPrefix,
            Duration lease,
            Duration renewEvery,
            MeterRegistry metrics) {
        if (renewEvery.toMillis() * 3 > lease.toMillis())
            throw new IllegalArgumentException("the lease (" + lease.toMillis()
                    + " ms) must last at least three renewals (" + renewEvery.toMillis() + " ms each)");
        this.redis = redis;
        this.admin = admin;
        this.applicationId = applicationId;
        this.self = self;
        this.keyPrefix = keyPrefix;
        this.leaseMs = lease.toMillis();
        this.renewMs = renewEvery.toMillis();
        this.judge = new LeaseJudge(self, 2 * renewMs);
        this.removed = Counter.builder("seckill_stream_peers_removed")
                .description("stream peers removed from the group because their lease lapsed")
                .register(metrics);
    }

    /**
     * The instance's lease, started, as its settings say; null when leases are off ({@code SECKILL_STREAM_LEASE_MS=0}).
     * A lease without static membership or an instance id is a setting that cannot work: one line, at start.
     */
    public static StreamLeases started(Settings settings, UnifiedJedis redis, String instance, MeterRegistry metrics) {
        int lease = settings.get(StockStreamSettings.LEASE_MS);
        if (lease <= 0) return null;
        if (instance.isBlank() || !settings.get(StockStreamSettings.STATIC_MEMBERSHIP))
            throw new IllegalArgumentException(StockStreamSettings.LEASE_MS.env()
                    + " needs an instance id and SECKILL_STREAM_STATIC_MEMBERSHIP=true: a peer is removed from the group"
                    + " by its static member id");
        String app = GroupIds.stockStream(settings);
        return new StreamLeases(
                        redis,
                        KafkaClients.admin(settings),
                        app,
                        instance,
                        settings.redisPrefix() + "stream:lease:" + app + ":",
                        Duration.ofMillis(lease),
                        Duration.ofMillis(settings.get(StockStreamSettings.LEASE_RENEW_MS)),
                        metrics)
                .start();
    }

    /** Holds the lease from now (before the streams join: a restart's lease is there before its member is). */
    public StreamLeases start() {
        renew();
        ticks.scheduleWithFixedDelay(this::tick, renewMs, renewMs, TimeUnit.MILLISECONDS);
        return this;
    }

    private boolean renew() {
        try {
            return "OK"
                    .equals(redis.set(
                            keyPrefix + self,
                            Long.toString(System.currentTimeMillis()),
                            SetParams.setParams().px(leaseMs)));
        } catch (RuntimeException e) {
            LOG.debug("lease not renewed: {}", e.getMessage());
            return false;
        }
    }

    private void tick() {
        try {
            boolean renewed = renew();
            Map<String, List<String>> members = staticMembers();
            Set<String> holding = new HashSet<>();
            if (renewed && !members.isEmpty()) {
                List<String> peers = new ArrayList<>(members.keySet());
                List<String> values =
                        redis.mget(peers.stream().map(p -> keyPrefix + p).toArray(String[]::new));
                for (int i = 0; i < peers.size(); i++) if (values.get(i) != null) holding.add(peers.get(i));
            }
            Set<String> drop = judge.judge(System.currentTimeMillis(), members.keySet(), holding, renewed);
            for (String peer : drop) remove(peer, members.get(peer));
        } catch (RuntimeException e) {
            LOG.debug("lease watch skipped: {}", e.getMessage());
        }
    }

    /** The group's static members by instance: each stream thread is {@code <instance>-<n>}. */
    private Map<String, List<String>> staticMembers() {
        Map<String, List<String>> out = new HashMap<>();
        try {
            for (MemberDescription m : admin.describeConsumerGroups(List.of(applicationId))
                    .describedGroups()
                    .get(applicationId)
                    .get(ASK.toMillis(), TimeUnit.MILLISECONDS)
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

    private void remove(String peer, List<String> instanceIds) {
        long t0 = System.nanoTime();
        try {
            admin.removeMembersFromConsumerGroup(
                            applicationId,
                            new RemoveMembersFromConsumerGroupOptions(instanceIds.stream()
                                    .map(MemberToRemove::new)
                                    .toList()))
                    .all()
                    .get(ASK.toMillis(), TimeUnit.MILLISECONDS);
            removed.increment();
            long removedMs = (System.nanoTime() - t0) / 1_000_000;
            // its threads' transactional ids are <application id>-<instance>-<n> (StableTransactionalIds), their static
            // members <instance>-<n>: fenced now, not when PeerFencing sees the group without them
            List<String> transactions =
                    instanceIds.stream().map(id -> applicationId + "-" + id).toList();
            admin.fenceProducers(transactions).all().get(ASK.toMillis(), TimeUnit.MILLISECONDS);
            LOG.warn(
                    "stream instance {} holds no lease ({} ms lease): its members {} removed from the group in {} ms and"
                            + " its transactions fenced in {} ms; its tasks move now",
                    peer,
                    leaseMs,
                    instanceIds,
                    removedMs,
                    (System.nanoTime() - t0) / 1_000_000 - removedMs);
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            // a member gone already (another peer removed it, or its session ended) is what was wanted
            LOG.info("stream instance {}'s members not removed: {}", peer, e.toString());
        }
    }

    /** The lease ends with a graceful close: peers need not wait for it to lapse. */
    @Override
    public void close() {
        ticks.shutdownNow();
        admin.close(ASK);
        try {
            redis.del(keyPrefix + self);
        } catch (RuntimeException e) {
            LOG.debug("lease not deleted (it lapses): {}", e.getMessage());
        }
    }
}
