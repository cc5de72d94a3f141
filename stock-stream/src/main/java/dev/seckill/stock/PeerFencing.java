package dev.seckill.stock;

import dev.seckill.kit.threads.Daemons;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts a dead peer's open transaction as soon as the group has dropped the peer, instead of after
 * {@code transaction.timeout.ms}: while it stays open, the outcome topics' last stable offset stays behind it and no
 * read_committed reader (the gateways' outcome view, the order-writer) sees a single decision the new owner of its
 * tasks makes. With an instance id, a stream thread's consumer is {@code <application id>-<instance
 * id>-StreamThread-<n>-consumer} and its producer's transactional id {@code <application id>-<instance id>-<n>}
 * ({@link StableTransactionalIds}), so every instance can name the transactional ids of the members the group has
 * dropped, and {@link Admin#fenceProducers} bumps their epoch, which aborts what was open. Checked whenever this
 * instance starts a rebalance (a drop is one), and every half session. A member dropped while alive (a pause past its session) is fenced as Kafka would fence it anyway:
 * its thread finds itself a zombie, rejoins, nothing is committed twice; a dropped member whose transactional id a
 * member holds again (its restart) is not fenced: the restart's own initialisation did it.
 */
final class PeerFencing implements KafkaStreams.StateListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeerFencing.class);
    private static final Duration ASK = Duration.ofSeconds(5);
    private static final Pattern THREAD_CONSUMER = Pattern.compile("(.+)-StreamThread-(\\d+)-consumer");

    private final Admin admin;
    private final String applicationId;
    private final Duration session;
    /** member id → the transactional id of its thread, as last seen. */
    private final Map<String, String> members = new HashMap<>();

    private final AtomicBoolean started = new AtomicBoolean();

    private final ScheduledExecutorService checks = Daemons.scheduler("stock-stream-peer-fencing");

    PeerFencing(Admin admin, String applicationId, Duration session) {
        this.admin = admin;
        this.applicationId = applicationId;
        this.session = session;
    }

    /**
     * Checks at once when this instance starts a rebalance, and every half session while it lives: a peer dropped
     * during a rebalance already under way (this instance restoring, say) starts none here (one DescribeGroups a second).
     */
    @Override
    public void onChange(KafkaStreams.State now, KafkaStreams.State before) {
        if (now == KafkaStreams.State.REBALANCING) checks.execute(this::check);
        if (before == KafkaStreams.State.CREATED && started.compareAndSet(false, true)) {
            long every = Math.max(250, session.toMillis() / 2);
            checks.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** The transactional id of a stream thread's consumer, named by its client id; empty for any other member. */
    Optional<String> transactionalId(String clientId) {
        Matcher m = THREAD_CONSUMER.matcher(clientId);
        if (!m.matches() || !m.group(1).startsWith(applicationId + "-")) return Optional.empty();
        return Optional.of(m.group(1) + "-" + m.group(2));
    }

    /** Fences the transactional ids of the members seen before and gone now; remembers the members now. */
    synchronized void check() {
        try {
            Map<String, String> now = new HashMap<>();
            for (MemberDescription m : admin.describeConsumerGroups(List.of(applicationId))
                    .describedGroups()
                    .get(applicationId)
                    .get(ASK.toMillis(), TimeUnit.MILLISECONDS)
                    .members()) transactionalId(m.clientId()).ifPresent(id -> now.put(m.consumerId(), id));
            Set<String> heldNow = Set.copyOf(now.values());
            List<String> gone = members.entrySet().stream()
                    .filter(e -> !now.containsKey(e.getKey()) && !heldNow.contains(e.getValue()))
                    .map(Map.Entry::getValue)
                    .distinct()
                    .sorted()
                    .collect(Collectors.toList());
            if (!gone.isEmpty()) {
                long t0 = System.nanoTime();
                admin.fenceProducers(gone).all().get(ASK.toMillis(), TimeUnit.MILLISECONDS);
                LOG.warn(
                        "stream members {} left the group: their transactions fenced (anything open aborted) in {} ms",
                        gone,
                        (System.nanoTime() - t0) / 1_000_000);
            }
            members.clear();
            members.putAll(now);
        } catch (ExecutionException e) {
            // a group that does not exist yet (the first start) has no member to lose
            if (!(e.getCause() instanceof GroupIdNotFoundException)) unchecked(e);
        } catch (Exception e) {
            unchecked(e);
        }
    }

    private static void unchecked(Exception e) {
        // the dead peer's transaction then ends at its timeout, as without this
        LOG.warn("could not check the group for dropped members: {}", e.toString());
    }

    /** How many stream-thread members the last check saw (what a test asserts a check did). */
    synchronized int membersSeen() {
        return members.size();
    }

    @Override
    public void close() {
        checks.shutdownNow();
        admin.close(ASK);
    }
}
