package dev.seckill.stock;

import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;

/**
 * stock-stream's settings, each declared once, and their values read once at start ({@link #from(Settings)}); the state
 * directory is read where the Streams config is made, so that its default (a new temporary directory) is made once.
 */
public record StockStreamSettings(
        int threads,
        int commitIntervalMs,
        int sessionTimeoutMs,
        int transactionTimeoutMs,
        int standbyReplicas,
        int maxPollRecords,
        int redisAttempts,
        int batchSize,
        long batchLingerMs,
        boolean shortCircuit,
        long pollMs,
        long caughtUpCommitMs,
        String drawBeacon,
        String drawBeaconUrls,
        long drawAllowanceMs,
        long drawBeaconMarginMs,
        String hopSecret,
        long bucketPrefetch,
        long bucketReborrowMs) {

    public static final Setting<Integer> THREADS = Setting.integer("stream.threads", 2, "Kafka Streams threads");
    public static final Setting<Integer> COMMIT_INTERVAL_MS =
            Setting.integer("stream.commit.interval.ms", 100, "how often a stream thread commits its transaction");
    public static final Setting<String> STATE_DIR = Setting.text(
            "stream.state.dir", s -> newTempDir(), "a new temporary directory", "Kafka Streams' state directory");
    public static final Setting<Integer> SESSION_TIMEOUT_MS = Setting.integer(
            "stream.session.timeout.ms",
            2_000,
            "the consumer's session timeout: how soon a dead instance's tasks move to another (heartbeats every fifth of it, "
                    + "at least 100 ms; raised to the brokers' group.min.session.timeout.ms, said at start)");
    public static final Setting<String> INSTANCE_ID = Setting.text(
            "stream.instance.id",
            s -> "",
            "<host name>-<metrics port> when run as a service",
            "the stable part of the producers' transactional ids and of the client ids; each instance its own (e.g. a "
                    + "StatefulSet's pod name): a restarted instance fences its predecessor's transaction at once, and a "
                    + "survivor the transactions of a peer the group dropped ('dynamic': Streams' own random ids)");
    public static final Setting<Boolean> STATIC_MEMBERSHIP = Setting.flag(
            "stream.static.membership",
            true,
            "join the group as a static member (group.instance.id = the instance id; none without an instance id): a "
                    + "restart takes its tasks back without a rebalance, a dead instance is removed by its peers' lease "
                    + "watch, a graceful stop leaves (false: dynamic membership, a dead member dropped after its session)");
    public static final Setting<Integer> LEASE_MS = Setting.integer(
            "stream.lease.ms",
            400,
            "a lease in Redis each instance renews (every stream.lease.renew.ms) over a connection named after it: a peer "
                    + "whose connection closed (its process ended) or whose lease lapsed (frozen) is removed from the "
                    + "group and fenced at once, its tasks moving to their standbys in about a second instead of after "
                    + "its session; with static membership and an instance id only (0: off; docs/decisions.md, 'A dead "
                    + "stream instance noticed in a lease')");
    public static final Setting<Integer> LEASE_RENEW_MS = Setting.integer(
            "stream.lease.renew.ms",
            100,
            "how often the lease is renewed and the peers' leases read (at most a third of it)");
    public static final Setting<Boolean> STABLE_TRANSACTIONAL_IDS = Setting.flag(
            "stream.stable.transactional.ids",
            true,
            "with an instance id, the producers' transactional ids are built from it, not from a random process id, so "
                    + "a restart fences its predecessor's open transaction at once (false: Streams' own, to measure)");
    public static final Setting<Integer> TRANSACTION_TIMEOUT_MS =
            Setting.integer("stream.transaction.timeout.ms", 10_000, "the producer's transaction timeout");
    public static final Setting<Integer> STANDBY_REPLICAS = Setting.integer(
            "stream.standby.replicas",
            1,
            "copies of each task's stores kept warm on other instances (num.standby.replicas): a task moves to an instance "
                    + "that already holds them when its owner dies");
    public static final Setting<Integer> MAX_POLL_RECORDS =
            Setting.integer("stream.max.poll.records", 1000, "commands per poll");
    public static final Setting<Integer> REDIS_ATTEMPTS = Setting.integer(
            "stream.redis.attempts", 6, "tries of a Redis call before the stream thread fails (and is replaced)");
    public static final Setting<Integer> BATCH_SIZE =
            Setting.integer("stream.batch.size", 256, "commands decided per pipelined Redis round trip");
    public static final Setting<Long> BATCH_LINGER_MS =
            Setting.number("stream.batch.linger.ms", 5, "how long a partial batch waits for more commands");
    public static final Setting<Boolean> SHORT_CIRCUIT =
            Setting.flag("stream.short.circuit", true, "sold-out goods answered in memory");
    public static final Setting<Long> POLL_MS = Setting.number(
            "stream.poll.ms",
            10,
            "how long a stream thread blocks in poll when no command arrives (the batch linger and the commit wait for it)");
    public static final Setting<Long> CAUGHT_UP_COMMIT_MS = Setting.number(
            "stream.caught.up.commit.ms",
            20,
            "a task that just decided a command younger than the commit interval commits at once, at most this often (0: off)");
    public static final Setting<String> DRAW_BEACON = Setting.text(
            "stream.draw.beacon",
            "quicknet",
            "the public randomness beacon whose round seeds drawn sales (docs/contracts.md, \"The draw\"): quicknet "
                    + "(drand's League of Entropy chain, its key built in), local (a beacon this deployment runs, read "
                    + "from the first of the URLs: tests and the demo only, its holder knows every round) or off (drawn "
                    + "opens refused to the DLQ)");
    public static final Setting<String> DRAW_BEACON_URLS = Setting.text(
            "stream.draw.beacon.urls",
            "",
            "the beacon's HTTP relays, comma-separated (quicknet: drand's public relays when empty; local: required)");
    public static final Setting<Long> DRAW_BEACON_MARGIN_MS = Setting.number(
            "stream.draw.beacon.margin.ms",
            1_000,
            "the draw takes the first beacon round published at least this long after the cutoff (clock skew between "
                    + "the brokers and the beacon); stated in the OPENED entry");
    public static final Setting<Long> DRAW_ALLOWANCE_MS = Setting.number(
            "stream.draw.allowance.ms",
            1_000,
            "how long after a drawn window's end a purchase accepted in it may still be appended to the commands topic "
                    + "and be drawn (several gateways, producer retries): the cutoff, judged on the broker's append time "
                    + "and stated in the OPENED entry; later ones are decided after the draw");
    public static final Setting<String> HOP_SECRET = Setting.secret(
            "stream.hop.secret",
            128,
            "the key every stock-stream instance seals its hops between a bucketed goods' buckets with (an HMAC on the "
                    + "commands topic: no other producer can write a transfer or skip a claim); empty: sales opened with "
                    + "buckets are refused to the DLQ (docs/decisions.md, 'Stock buckets')");
    public static final Setting<Long> BUCKET_PREFETCH = Setting.number(
            "stream.bucket.prefetch",
            0,
            "units a bucket's borrow asks beyond what the purchase that ran short needs (fewer borrows; each bucket may "
                    + "then hold this many more units while another bucket's buyer is answered SOLD_OUT)");
    public static final Setting<Long> BUCKET_REBORROW_MS = Setting.number(
            "stream.bucket.reborrow.ms",
            1_000,
            "after a borrow found every bucket empty, how long (in the purchases' record time) a bucket answers SOLD_OUT "
                    + "before it borrows again (units released meanwhile may wait this long for a buyer)");
    public static final Setting<Integer> METRICS_PORT =
            Setting.integer("stream.metrics.port", 9402, "the port of /metrics when run as a service");
    public static final Setting<Integer> JIT_NICE = Setting.integer(
            "stream.jit.nice",
            19,
            "the nice value the JVM's JIT compiler threads run at through a service's start (Linux, 1–19; 0: left as "
                    + "they are; where the process may not raise them back, left too): a restart's own start and first "
                    + "decisions go before compiling (docs/decisions.md, 'The "
                    + "stream's JIT compilers run behind its start')");
    public static final Setting<Integer> JIT_NICE_SECONDS = Setting.integer(
            "stream.jit.nice.seconds",
            60,
            "how long after the start the JIT compiler threads stay at stream.jit.nice; then they run at the JVM's "
                    + "priority again (held back for good, they stall the JVM's safepoints: the lease renewals with "
                    + "them)");

    /** Every setting declared here, in order. */
    public static List<Setting<?>> all() {
        return Setting.declaredIn(StockStreamSettings.class);
    }

    public static StockStreamSettings from(Settings s) {
        return new StockStreamSettings(
                s.get(THREADS),
                s.get(COMMIT_INTERVAL_MS),
                s.get(SESSION_TIMEOUT_MS),
                s.get(TRANSACTION_TIMEOUT_MS),
                s.get(STANDBY_REPLICAS),
                s.get(MAX_POLL_RECORDS),
                s.get(REDIS_ATTEMPTS),
                s.get(BATCH_SIZE),
                s.get(BATCH_LINGER_MS),
                s.get(SHORT_CIRCUIT),
                s.get(POLL_MS),
                s.get(CAUGHT_UP_COMMIT_MS),
                s.get(DRAW_BEACON),
                s.get(DRAW_BEACON_URLS),
                s.get(DRAW_ALLOWANCE_MS),
                s.get(DRAW_BEACON_MARGIN_MS),
                s.get(HOP_SECRET),
                s.get(BUCKET_PREFETCH),
                s.get(BUCKET_REBORROW_MS));
    }

    private static String newTempDir() {
        try {
            return Files.createTempDirectory("seckill-stock-stream-").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The stream consumers' heartbeat: every fifth of the session, at least 100 ms; every 100 ms at most where leases
     * run (a peer they remove starts a rebalance the survivors hear of at their next heartbeat).
     */
    public static int heartbeatMs(Settings settings, int sessionTimeoutMs, String instance) {
        int heartbeat = Math.max(100, sessionTimeoutMs / 5);
        boolean leases = settings.get(LEASE_MS) > 0 && !instance.isBlank() && settings.get(STATIC_MEMBERSHIP);
        return leases ? Math.min(heartbeat, 100) : heartbeat;
    }
}
