package dev.seckill.order;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.InstanceIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.observability.Console;
import dev.seckill.kit.observability.ServiceMain;
import dev.seckill.order.consume.ConsumerLoop;
import dev.seckill.order.consume.DeadLetterWriter;
import dev.seckill.order.db.Database;
import dev.seckill.order.lifecycle.PaymentForwarder;
import dev.seckill.order.lifecycle.PaymentTimeoutSweeper;
import dev.seckill.order.lifecycle.PaymentsProgress;
import dev.seckill.order.write.BatchWriter;
import dev.seckill.order.write.TopicHandlers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The order-writer service: consumes SUCCESS outcomes, the ledger and payments (read_committed, in batches), writes each
 * batch in one DB transaction (on a writer thread, while the next batch is polled), and commits the Kafka offsets only
 * after the DB commit. A DB fault pauses consumption and retries the same batch with backoff until the DB is back; a
 * record that can never be written goes to the DLQ. A sweeper cancels orders unpaid past the deadline and sends their
 * release commands. If the consumer loop ends on an error, the service is dead: health turns DOWN, the sweeper stops and
 * the process exits non-zero (through the injected {@code onFatal}), so a supervisor restarts it rather than leaving a
 * process that looks alive while SUCCESS outcomes stop becoming orders.
 * <p>This class is the composition root: {@link #start()} builds the parts and wires them —
 * {@link ConsumerLoop} (poll, pause, commit; {@code consume/}), {@link BatchWriter} (the transaction, fast and savepoint
 * paths; {@code write/}), {@link TopicHandlers} (topic → handler), {@link DeadLetterWriter} and the
 * {@link PaymentTimeoutSweeper} on its own scheduled thread.
 */
public final class OrderWriterApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OrderWriterApp.class);

    /** Exits the process; System.exit runs the shutdown hooks, which close the service. */
    public static final IntConsumer FATAL_EXIT = status -> System.exit(status);

    private final Settings settings;
    private final OrderWriterSettings config;
    private final MeterRegistry metrics;
    private final Topics topics;
    private final IntConsumer onFatal;
    /** What start() built, published at once to the threads that read health or close the service; null before. */
    private volatile Running running;

    /** The started parts, immutable; each closes what it owns. */
    private record Running(
            HikariDataSource db,
            KafkaProducer<String, byte[]> producer,
            Admin admin,
            ScheduledExecutorService sweeps,
            ConsumerLoop loop) {}

    /** The service as a process: a fatal end of its consumer loop exits the JVM with status 1. */
    public OrderWriterApp(Settings settings, MeterRegistry metrics) {
        this(settings, metrics, FATAL_EXIT);
    }

    /** @param onFatal called once, with a non-zero status, when the consumer loop has ended on an error */
    public OrderWriterApp(Settings settings, MeterRegistry metrics, IntConsumer onFatal) {
        this.settings = settings;
        this.config = OrderWriterSettings.from(settings);
        this.metrics = metrics;
        this.topics = new Topics(settings.topicPrefix());
        this.onFatal = onFatal;
        metrics.gauge("seckill_writer_up", this, app -> app.health().up() ? 1 : 0);
    }

    /** UP while the consumer loop runs; DOWN (with why) before start, after close, and for good once the loop failed. */
    public record Health(boolean up, String detail) {}

    public Health health() {
        Running r = running;
        String failed = r == null ? null : r.loop().failure();
        if (failed != null) return new Health(false, "consumer loop ended: " + failed);
        return r != null && r.loop().isRunning() ? new Health(true, "consuming") : new Health(false, "not running");
    }

    public OrderWriterApp start() {
        KafkaClients.require(settings, "run ./seckill up or set SECKILL_KAFKA_BOOTSTRAP");
        HikariDataSource db = Database.open(settings, "order-writer", metrics);
        Duration paymentTimeout = Duration.ofMillis(config.paymentTimeoutMs());
        TopicProvisioner.ensure(settings, topics);
        KafkaConsumer<String, byte[]> consumer = newConsumer();
        new KafkaClientMetrics(consumer).bindTo(metrics);
        KafkaProducer<String, byte[]> producer = newProducer();
        TopicHandlers handlers = new TopicHandlers(topics, paymentTimeout, metrics);
        Admin admin = KafkaClients.admin(settings);
        ScheduledExecutorService sweeps = scheduleSweeps(db, producer, admin, paymentTimeout);
        ConsumerLoop loop = new ConsumerLoop(
                consumer,
                handlers,
                new BatchWriter(db, handlers, metrics),
                new DeadLetterWriter(producer, topics.dlq(), config, metrics),
                metrics,
                () -> onLoopFailed(sweeps));
        running = new Running(db, producer, admin, sweeps, loop);
        loop.start();
        LOG.info("order-writer started: {} + {} -> {}", topics.ledger(), topics.payments(), settings.dbUrl());
        return this;
    }

    /** Called on the loop's thread when it ended on an error: nothing is consumed any more, so the service is over. */
    private void onLoopFailed(ScheduledExecutorService sweeps) {
        sweeps.shutdownNow(); // no cancellations while nothing consumes the payments
        metrics.counter("seckill_writer_fatal").increment();
        onFatal.accept(1);
    }

    private KafkaConsumer<String, byte[]> newConsumer() {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.GROUP_ID_CONFIG, GroupIds.orderWriter(settings));
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.batchMax());
        String instance = InstanceIds.of(settings, OrderWriterSettings.INSTANCE_ID);
        if (!instance.isBlank()) c.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instance); // back at once on a restart
        // a whole batch's worth per partition fetch (the default 1 MB is ~3,000 outcomes: the next poll would wait)
        c.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        return KafkaClients.consumer(settings, c);
    }

    /** The producer of the DLQ, of the sweeper's release commands and of the forwarded pay commands. */
    private KafkaProducer<String, byte[]> newProducer() {
        // a send that cannot even find its topic fails after max.block.ms (default 60 s) and is retried by the
        // DeadLetterWriter
        return ReliableProducers.create(settings, Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, config.dlqTimeoutMs()));
    }

    private ScheduledExecutorService scheduleSweeps(
            HikariDataSource db, KafkaProducer<String, byte[]> producer, Admin admin, Duration paymentTimeout) {
        long sweepEvery = config.sweepIntervalMs();
        // moments by the DB's clock, the one created_at is stored in (never the host's: their skew would move
        // deadlines)
        PaymentsProgress progress = new PaymentsProgress(admin, GroupIds.orderWriter(settings), topics.payments(), db);
        PaymentTimeoutSweeper sweeper = new PaymentTimeoutSweeper(
                db, producer, topics, paymentTimeout, Duration.ofMillis(config.paymentGraceMs()), progress, metrics);
        PaymentForwarder forwarder = new PaymentForwarder(db, producer, topics, metrics);
        ScheduledExecutorService sweeps =
                Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "payment-timeout-sweeper"));
        sweeps.scheduleWithFixedDelay(
                () -> {
                    try {
                        forwarder.forward(); // payments taken since the last pass go to the stream (their orders are
                        // PAYING)
                        sweeper.sweep();
                    } catch (Exception e) {
                        metrics.counter("seckill_sweeper_errors").increment();
                        LOG.warn("payment-timeout sweep failed (next one in {} ms): {}", sweepEvery, e.getMessage());
                    }
                },
                sweepEvery,
                sweepEvery,
                TimeUnit.MILLISECONDS);
        return sweeps;
    }

    public HikariDataSource dataSource() {
        Running r = running;
        return r == null ? null : r.db();
    }

    @Override
    public void close() {
        Running r = running;
        if (r == null) return;
        r.sweeps().shutdownNow();
        try {
            r.sweeps().awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        r.loop().stop();
        r.producer().close(Duration.ofSeconds(5));
        r.admin().close(Duration.ofSeconds(5));
        r.db().close();
    }

    public static void main(String[] args) throws Exception {
        // the writer serves /metrics itself, next to /health (null: ServiceMain starts no metrics server of its own)
        ServiceMain.run("order-writer", null, (given, registry) -> {
            Settings settings =
                    InstanceIds.withDefault(given, OrderWriterSettings.INSTANCE_ID, OrderWriterSettings.METRICS_PORT);
            OrderWriterApp app = new OrderWriterApp(settings, registry).start();
            StatusServer status = StatusServer.start(
                    registry,
                    app::health,
                    settings.get(SharedSettings.ADMIN_HOST),
                    settings.get(OrderWriterSettings.METRICS_PORT));
            Console.println("order-writer: metrics on http://" + settings.get(SharedSettings.ADMIN_HOST) + ":"
                    + status.port() + "/metrics, health on /health, liveness on /live");
            return () -> {
                app.close();
                status.close();
            };
        });
    }
}
