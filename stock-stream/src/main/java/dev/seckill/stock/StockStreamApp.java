package dev.seckill.stock;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.InstanceIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.config.WarmupSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.SessionTimeouts;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.observability.ServiceMain;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.kit.threads.CompilerThreads;
import dev.seckill.kit.warmup.LiveSale;
import dev.seckill.kit.warmup.Readiness;
import dev.seckill.stock.decision.RedisClockWatch;
import dev.seckill.stock.decision.StockScripts;
import dev.seckill.stock.draw.beacon.BeaconSource;
import dev.seckill.stock.lease.StreamLeases;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * The stock-stream service: the Kafka Streams app (exactly_once_v2) that decides every command.
 * When Redis stays down past the retries, the stream thread fails, its transaction aborts and the thread is
 * replaced: the task resumes from its last committed offset once Redis answers again.
 */
public final class StockStreamApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StockStreamApp.class);

    private final Settings settings;
    private final MeterRegistry metrics;
    private UnifiedJedis redis;
    private ScheduledExecutorService clockWatch;
    private KafkaStreams streams;
    private KafkaStreamsMetrics streamsMetrics;
    private PeerFencing fencing;
    private StreamLeases leases;
    private BeaconSource beacon;
    private boolean staticMember;
    private int session;

    public StockStreamApp(Settings settings, MeterRegistry metrics) {
        this.settings = settings;
        this.metrics = metrics;
    }

    public static Properties streamsConfig(Settings settings) {
        StockStreamSettings config = StockStreamSettings.from(settings);
        return streamsConfig(settings, config.sessionTimeoutMs());
    }

    /** As above, with the session timeout the brokers accept ({@link SessionTimeouts}). */
    static Properties streamsConfig(Settings settings, int sessionTimeoutMs) {
        StockStreamSettings config = StockStreamSettings.from(settings);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, GroupIds.stockStream(settings));
        p.putAll(KafkaClients.common(settings)); // bootstrap and security, for each of its clients
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.threads());
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.standbyReplicas());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.commitIntervalMs());
        // how long the stream thread blocks in poll when no command arrives; punctuations (the batch linger) and the
        // commit wait for it, so on a quiet stream it was added to a purchase's time to answer (Kafka's default 100;
        // 10 here: docs/decisions.md, "Time to answer")
        p.put(StreamsConfig.POLL_MS_CONFIG, config.pollMs());
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.STATE_DIR_CONFIG, settings.get(StockStreamSettings.STATE_DIR));
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), sessionTimeoutMs);
        String instance = InstanceIds.of(settings, StockStreamSettings.INSTANCE_ID);
        p.put(
                StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
                StockStreamSettings.heartbeatMs(settings, sessionTimeoutMs, instance));
        p.put(StockTopology.INSTANCE_CONFIG, instance);
        if (!instance.isBlank()) {
            // the instance in every client id: a peer names a dropped instance's transactional ids from its members'
            p.put(StreamsConfig.CLIENT_ID_CONFIG, GroupIds.stockStream(settings) + "-" + instance);
            if (settings.get(StockStreamSettings.STATIC_MEMBERSHIP))
                p.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), instance);
        }
        p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), config.transactionTimeoutMs());
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), config.maxPollRecords());
        // a task taking over restores the changelogs' tail: the restore consumer's fetch would otherwise wait up to
        // 500 ms for data that is not there at each step (1.3 s of a 3.6 s takeover, measured)
        p.put(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 20);
        // a partition a thread takes over joins its fetches only once the fetch in flight to that broker returns, which
        // on a quiet partition set waits up to fetch.max.wait.ms (500 by default) before the first command is seen
        // (docs/reliability.md, "A failover, phase by phase")
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 50);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        // a hot goods writes five records per sale to five partitions (outcome, ledger, three changelogs): at the
        // default 16 KB a batch, and with it an lz4 frame (a 64 KB buffer and a hash), was opened every ~50 records
        // (docs/performance.md, "Where the time goes")
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 128 * 1024);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        return p;
    }

    public StockStreamApp start() {
        KafkaClients.require(settings, "run ./seckill up or set SECKILL_KAFKA_BOOTSTRAP");
        redis = RedisConnections.open(settings);
        Topics topics = new Topics(settings.topicPrefix());
        // one Admin client for the questions at start, then for fencing: a restart waits for each one made
        String instance = InstanceIds.of(settings, StockStreamSettings.INSTANCE_ID);
        Admin admin = KafkaClients.admin(settings);
        try {
            TopicProvisioner.ensure(admin, settings, topics);
            leases = StreamLeases.started(settings, redis, instance, metrics); // held before the streams join
            streams = streams(admin, topics, instance);
            staticMember = !instance.isBlank() && settings.get(StockStreamSettings.STATIC_MEMBERSHIP);
            if (!instance.isBlank() && settings.get(StockStreamSettings.STABLE_TRANSACTIONAL_IDS)) {
                fencing = new PeerFencing(admin, GroupIds.stockStream(settings), Duration.ofMillis(session));
                admin = null; // the fencing's now, closed with it
                streams.setStateListener(fencing);
            }
        } finally {
            if (admin != null) admin.close(Duration.ofSeconds(1));
        }
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error(
                    "stream thread failed, replacing it (its transaction is aborted, nothing half-done is committed): {}",
                    e.getMessage());
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(metrics);
        streams.start();
        LOG.info(
                "stock-stream started: commands {} (prefix {}), Redis keys {}",
                topics.commands(),
                topics.prefix(),
                settings.redisPrefix());
        return this;
    }

    /** The Kafka Streams app of the topology, not started; {@link #session} set to what the brokers accept. */
    private KafkaStreams streams(Admin admin, Topics topics, String instance) {
        StockStreamSettings config = StockStreamSettings.from(settings);
        StockScripts scripts = new StockScripts(
                redis,
                new RedisKeys(settings.redisPrefix()),
                metrics,
                config.redisAttempts(),
                Duration.ofMillis(50),
                SharedSettings.keyLifetime(settings));
        if (leases != null) scripts.ownLease(leases.ownLease());
        clockWatch = new RedisClockWatch(redis, new RedisKeys(settings.redisPrefix()), Clock.systemUTC(), metrics)
                .inBackground();
        StreamsBuilder builder = new StreamsBuilder();
        beacon = DrawBeacon.of(config);
        StockTopology.build(
                builder,
                topics,
                () -> scripts,
                Clock.systemUTC(),
                metrics,
                StockTopology.Settings.from(
                        config, beacon, TopicProvisioner.partitionsOf(admin, settings, topics.commands())));
        session = SessionTimeouts.fitted(admin, config.sessionTimeoutMs(), "stock-stream");
        return instance.isBlank() || !settings.get(StockStreamSettings.STABLE_TRANSACTIONAL_IDS)
                ? new KafkaStreams(builder.build(), streamsConfig(settings, session))
                : new KafkaStreams(
                        builder.build(),
                        streamsConfig(settings, session),
                        new StableTransactionalIds(GroupIds.stockStream(settings), instance));
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Blocks until the app has partitions assigned and is RUNNING. */
    public void awaitRunning(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > deadline)
                throw new IllegalStateException("stock-stream not RUNNING: " + streams.state());
            try {
                Thread.sleep(50); // polling the Streams state machine
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        if (clockWatch != null) clockWatch.shutdownNow();
        // a static member does not leave its group as it closes unless told: its peers would wait for its lease
        if (streams != null)
            streams.close(CloseOptions.groupMembershipOperation(
                            staticMember
                                    ? GroupMembershipOperation.LEAVE_GROUP
                                    : GroupMembershipOperation.REMAIN_IN_GROUP)
                    .withTimeout(Duration.ofSeconds(30)));
        if (streamsMetrics != null) streamsMetrics.close();
        if (fencing != null) fencing.close();
        if (leases != null) leases.close();
        if (redis != null) redis.close();
        if (beacon != null) beacon.close();
    }

    /**
     * The service: {@code /health} on the metrics port says {@code starting} until the app is RUNNING, then
     * {@code warming} while a {@link StreamWarmup} app decides its purchases on a namespace of its own, then UP; a start
     * mid-sale ({@link LiveSale}) is UP at once.
     */
    public static void main(String[] args) throws Exception {
        CompilerThreads.behindTheStart(StockStreamSettings.JIT_NICE, StockStreamSettings.JIT_NICE_SECONDS);
        Readiness readiness = new Readiness(Readiness.State.STARTING);
        ServiceMain.run(
                "stock-stream",
                StockStreamSettings.METRICS_PORT,
                (given, registry) -> {
                    CompilerThreads.check( // lowered above; a bad value stops here
                            given, StockStreamSettings.JIT_NICE, StockStreamSettings.JIT_NICE_SECONDS);
                    Settings settings = InstanceIds.withDefault(
                            given, StockStreamSettings.INSTANCE_ID, StockStreamSettings.METRICS_PORT);
                    StockStreamApp app = new StockStreamApp(settings, registry).start();
                    app.awaitRunning(Duration.ofMinutes(5));
                    StreamWarmup.inBackground(
                            settings,
                            LiveSale.warmupUnlessLive(
                                    settings, WarmupSettings.streamCommands(settings), "stock-stream"),
                            readiness);
                    return app;
                },
                readiness);
    }
}
