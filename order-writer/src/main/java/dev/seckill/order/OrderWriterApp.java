package dev.seckill.order;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.TopicProvisioner;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.observability.ServiceMain;
import dev.seckill.contracts.config.Unreachable;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.order.db.Database;
import dev.seckill.order.lifecycle.PaymentResult;
import dev.seckill.order.lifecycle.PaymentTimeoutSweeper;
import dev.seckill.order.lifecycle.PaymentsProgress;
import dev.seckill.order.lifecycle.Payments;
import dev.seckill.order.store.LedgerEffect;
import dev.seckill.order.store.Orders;
import dev.seckill.order.store.StockLedger;
import dev.seckill.order.store.TracedOutcome;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The order-writer service: consumes SUCCESS outcomes, the ledger and payments (read_committed, in batches), writes each
 * batch in one DB transaction (on a writer thread, while the next batch is polled), and commits the Kafka offsets only
 * after the DB commit. A DB fault pauses
 * consumption and retries the same batch with backoff until the DB is back; a record that can never be written
 * goes to the DLQ. A sweeper cancels orders unpaid past the deadline and sends their release commands.
 * If the consumer loop ends on an error, the service is dead: health turns DOWN, the sweeper stops and the process
 * exits non-zero (through the injected {@code onFatal}), so a supervisor restarts it rather than leaving a process that
 * looks alive while SUCCESS outcomes stop becoming orders.
 */
public final class OrderWriterApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OrderWriterApp.class);

    private final Settings settings;
    private final MeterRegistry metrics;
    private final Topics topics;
    private final AtomicBoolean running = new AtomicBoolean();
    private final IntConsumer onFatal;
    private volatile String failure;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private HikariDataSource db;
    private KafkaConsumer<String, byte[]> consumer;
    private KafkaProducer<String, byte[]> dlq;
    private org.apache.kafka.clients.admin.Admin admin;
    private Duration paymentTimeout;
    private Thread loop;
    private ScheduledExecutorService sweeps;
    private Map<TopicPartition, OffsetAndMetadata> pending;
    private java.util.concurrent.ExecutorService writer;
    private java.util.concurrent.Future<Written> inFlight;
    private Batch ready;

    /** The service as a process: a fatal end of its consumer loop exits the JVM with status 1. */
    public OrderWriterApp(Settings settings, MeterRegistry metrics) {
        this(settings, metrics, FATAL_EXIT);
    }

    /** @param onFatal called once, with a non-zero status, when the consumer loop has ended on an error */
    public OrderWriterApp(Settings settings, MeterRegistry metrics, IntConsumer onFatal) {
        this.settings = settings;
        this.metrics = metrics;
        this.topics = new Topics(settings.topicPrefix());
        this.onFatal = onFatal;
        metrics.gauge("seckill_writer_up", this, app -> app.health().up() ? 1 : 0);
    }

    /** Exits the process; System.exit runs the shutdown hooks, which close the service. */
    public static final IntConsumer FATAL_EXIT = status -> System.exit(status);

    /** UP while the consumer loop runs; DOWN (with why) before start, after close, and for good once the loop failed. */
    public record Health(boolean up, String detail) {}

    public Health health() {
        String failed = failure;
        if (failed != null) return new Health(false, "consumer loop ended: " + failed);
        return running.get() ? new Health(true, "consuming") : new Health(false, "not running");
    }

    public OrderWriterApp start() {
        Unreachable.requireTcp("Kafka", settings.kafkaBootstrap(), "run ./seckill up or set SECKILL_KAFKA_BOOTSTRAP");
        db = Database.open(settings, "order-writer");
        paymentTimeout = Duration.ofMillis(settings.getLong("writer.payment.timeout.ms", Duration.ofMinutes(15).toMillis()));
        TopicProvisioner.ensure(settings.kafkaBootstrap(), topics, TopicProvisioner.DEFAULT_PARTITIONS);
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafkaBootstrap());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, dev.seckill.contracts.GroupIds.orderWriter(settings));
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.getInt("writer.batch.max", 3000));
        // a whole batch's worth per partition fetch (the default 1 MB is ~3,000 outcomes: the next poll would wait)
        c.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
        new KafkaClientMetrics(consumer).bindTo(metrics);
        // a send that cannot even find its topic fails after max.block.ms (default 60 s) and is retried by sendToDlq
        dlq = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafkaBootstrap(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, settings.getLong("writer.dlq.timeout.ms", 10_000)),
                new StringSerializer(), new ByteArraySerializer());
        consumer.subscribe(List.of(topics.success(), topics.ledger(), topics.payments()), new Handover());
        writer = Executors.newSingleThreadExecutor(r -> new Thread(r, "order-writer-db"));
        running.set(true);
        loop = new Thread(this::run, "order-writer");
        loop.start();
        long sweepEvery = settings.getLong("writer.sweep.interval.ms", 1000);
        admin = org.apache.kafka.clients.admin.Admin.create(Map.of(org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                settings.kafkaBootstrap()));
        PaymentsProgress progress = new PaymentsProgress(admin, dev.seckill.contracts.GroupIds.orderWriter(settings), topics.payments(),
                System::currentTimeMillis);
        PaymentTimeoutSweeper sweeper = new PaymentTimeoutSweeper(db, dlq, topics, paymentTimeout,
                Duration.ofMillis(settings.getLong("writer.payment.grace.ms", 0)), progress, metrics);
        sweeps = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "payment-timeout-sweeper"));
        sweeps.scheduleWithFixedDelay(() -> {
            try {
                sweeper.sweep();
            } catch (Exception e) {
                metrics.counter("seckill_sweeper_errors").increment();
                LOG.warn("payment-timeout sweep failed (next one in {} ms): {}", sweepEvery, e.getMessage());
            }
        }, sweepEvery, sweepEvery, TimeUnit.MILLISECONDS);
        LOG.info("order-writer started: {} + {} -> {}", topics.success(), topics.ledger(), settings.dbUrl());
        return this;
    }

    /**
     * The consumer loop, pipelined: while the writer thread writes batch N in its DB transaction, this thread polls
     * and decodes batch N+1 (it waits, paused, if N+1 is ready first). Batches are written one at a time and in poll
     * order; a batch's offsets — the consumer's positions right after it was polled — are committed only after its DB
     * commit. On revocation the batch in flight and the one ready are written before the partitions go.
     */
    private void run() {
        try {
            while (running.get()) {
                if (inFlight != null && inFlight.isDone()) finish(false);
                if (ready != null && inFlight == null) {
                    Batch next = ready;
                    ready = null;
                    inFlight = writer.submit(() -> new Written(next, writeUntilDone(next)));
                }
                if (ready == null) {
                    if (!consumer.paused().isEmpty()) consumer.resume(consumer.paused());
                    ConsumerRecords<String, byte[]> records = consumer.poll(inFlight == null ? Duration.ofMillis(200) : Duration.ofMillis(5));
                    if (!records.isEmpty()) {
                        ready = batchOf(records);
                    } else if (inFlight == null) {
                        commitPositions(); // moves the committed offsets past transaction markers, so lag reads 0 when idle
                    }
                } else {
                    awaitWriter(Duration.ofMillis(50));
                    consumer.pause(consumer.assignment());
                    consumer.poll(Duration.ZERO); // paused: keeps the group membership without fetching more
                }
            }
        } catch (RuntimeException e) {
            if (!(e instanceof WakeupException && !running.get())) { // a wakeup is close() asking; anything else is fatal
                failure = e.getClass().getSimpleName() + ": " + e.getMessage();
                running.set(false);
                LOG.error("order-writer's consumer loop ended on an error: the service is DOWN and exits", e);
            }
        } finally {
            try {
                if (inFlight != null) finish(true);
            } catch (RuntimeException e) {
                LOG.warn("the last batch did not finish (it will be redelivered): {}", e.getMessage());
            }
            writer.shutdown();
            try {
                if (pending != null) consumer.commitSync(pending, Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.debug("final offset commit failed (harmless redelivery): {}", e.getMessage());
            }
            try {
                consumer.close(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.debug("consumer close failed: {}", e.getMessage());
            }
            stopped.countDown();
            if (failure != null) {
                if (sweeps != null) sweeps.shutdownNow(); // no cancellations while nothing consumes the payments
                metrics.counter("seckill_writer_fatal").increment();
                onFatal.accept(1);
            }
        }
    }

    /** A polled batch, its SUCCESS outcomes decoded for the fast path (null: the slow path), and where the consumer stood after it. */
    private record Batch(List<ConsumerRecord<String, byte[]>> records, List<TracedOutcome> successes,
                         Map<TopicPartition, OffsetAndMetadata> positions) {}

    /** A batch after its write: the records for the DLQ, or null when the writer stopped before the batch was written. */
    private record Written(Batch batch, List<Poison> poison) {}

    private Batch batchOf(ConsumerRecords<String, byte[]> records) {
        List<ConsumerRecord<String, byte[]>> list = new ArrayList<>(records.count());
        records.forEach(list::add);
        return new Batch(list, fastPathSuccesses(list), positions());
    }

    private void awaitWriter(Duration max) {
        try {
            inFlight.get(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            // still writing (retrying a DB fault, perhaps), or failed: finish() reports it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the batch in flight, sends its poison to the DLQ and commits its offsets. */
    private void finish(boolean sync) {
        Written w;
        try {
            w = inFlight.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a batch was being written", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } finally {
            inFlight = null;
        }
        if (w.poison() == null) return; // stopped before it was written: redelivered to whoever comes next
        for (Poison p : w.poison()) sendToDlq(p);
        commit(w.batch().positions(), sync);
        metrics.summary("seckill_writer_batch_size").record(w.batch().records().size());
    }

    /** Before partitions go to another member: what was polled from them is written and committed first. */
    private final class Handover implements ConsumerRebalanceListener {
        @Override public void onPartitionsRevoked(java.util.Collection<TopicPartition> partitions) {
            if (inFlight != null) finish(true);
            if (ready != null) {
                Batch b = ready;
                ready = null;
                inFlight = java.util.concurrent.CompletableFuture.completedFuture(new Written(b, writeUntilDone(b)));
                finish(true);
            }
        }

        @Override public void onPartitionsAssigned(java.util.Collection<TopicPartition> partitions) {}

        @Override public void onPartitionsLost(java.util.Collection<TopicPartition> partitions) {
            ready = null; // no longer ours: not written, not committed; the new owner reads them
            if (inFlight != null) awaitWriter(Duration.ofSeconds(30)); // its commit fails harmlessly; the op_id claims dedupe
            inFlight = null;
        }
    }

    /** Writes the batch, retrying DB faults with backoff (consumption is paused meanwhile). Null when stopping. */
    private List<Poison> writeUntilDone(Batch batch) {
        long backoffMs = 100;
        boolean failing = false;
        while (running.get()) {
            try {
                List<Poison> poison = write(batch);
                if (failing) LOG.info("database is back: batch of {} written", batch.records().size());
                return poison;
            } catch (SQLException e) {
                metrics.counter("seckill_writer_db_retries").increment();
                LOG.warn("database write failed ({}), retrying in {} ms: {}", e.getSQLState(), backoffMs, e.getMessage());
                failing = true;
                try {
                    Thread.sleep(backoffMs); // backoff between DB retries, on the writer thread
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                backoffMs = Math.min(backoffMs * 2, 5000);
            }
        }
        return null;
    }

    /**
     * Writes a batch in one transaction: the SUCCESS outcomes through the multi-row fast path, the rest record by
     * record. If the fast path meets a data error (a record at fault), the whole batch is redone record by record with
     * a savepoint each, so exactly the faulty records go to the DLQ.
     */
    private List<Poison> write(Batch polled) throws SQLException {
        Timer.Sample sample = Timer.start(metrics);
        List<Poison> poison;
        List<ConsumerRecord<String, byte[]>> batch = polled.records();
        List<TracedOutcome> successes = polled.successes();
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (successes != null) {
                    try {
                        int written = Orders.recordSuccesses(c, successes);
                        if (written < 0) {
                            poison = writeEach(c, batch); // a release waits for one of these orders: record by record
                        } else {
                            metrics.counter("seckill_orders_written").increment(written);
                            poison = writeEach(c, batch.stream().filter(r -> !r.topic().equals(topics.success())).toList());
                        }
                    } catch (SQLException e) {
                        if (!isDataError(e)) throw e;
                        c.rollback();
                        poison = writeEach(c, batch);
                    }
                } else {
                    poison = writeEach(c, batch);
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the connection is gone; the transaction is gone with it
                }
                throw e;
            }
        }
        sample.stop(Timer.builder("seckill_writer_db_batch").publishPercentileHistogram().register(metrics));
        return poison;
    }

    /** The batch's SUCCESS outcomes when every one of them is well-formed; null sends the batch down the slow path. */
    private List<TracedOutcome> fastPathSuccesses(List<ConsumerRecord<String, byte[]>> batch) {
        List<TracedOutcome> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : batch) {
            if (!r.topic().equals(topics.success())) continue;
            try {
                Outcome o = Json.read(r.value(), Outcome.class);
                if (!isWritable(o)) return null;
                out.add(new TracedOutcome(o, TraceHeaders.get(r.headers())));
            } catch (RuntimeException e) {
                return null;
            }
        }
        return out;
    }

    private List<Poison> writeEach(Connection c, List<ConsumerRecord<String, byte[]>> records) throws SQLException {
        List<Poison> poison = new ArrayList<>();
        int orders = 0;
        for (ConsumerRecord<String, byte[]> r : records) {
            Savepoint sp = c.setSavepoint();
            try {
                if (apply(c, r)) orders += r.topic().equals(topics.success()) ? 1 : 0;
            } catch (PoisonRecord p) {
                c.rollback(sp);
                poison.add(new Poison(r, p.getMessage()));
            } catch (SQLException e) {
                if (!isDataError(e)) throw e;
                c.rollback(sp);
                poison.add(new Poison(r, "cannot be written: " + e.getMessage()));
            }
        }
        metrics.counter("seckill_orders_written").increment(orders);
        return poison;
    }

    private static boolean isWritable(Outcome o) {
        return o.outcome() == OutcomeKind.SUCCESS && o.requestId() != null && o.goodsId() > 0 && o.quantity() > 0;
    }

    private boolean apply(Connection c, ConsumerRecord<String, byte[]> r) throws SQLException, PoisonRecord {
        String traceId = TraceHeaders.get(r.headers());
        MDC.put("traceId", traceId == null ? "" : traceId);
        try {
            if (r.topic().equals(topics.success())) {
                Outcome o = parse(r, Outcome.class);
                if (!isWritable(o)) {
                    throw new PoisonRecord("not a SUCCESS outcome with requestId, goodsId and quantity");
                }
                return Orders.recordSuccess(c, o, traceId);
            }
            if (r.topic().equals(topics.payments())) {
                Payment p = parse(r, Payment.class);
                if (p.paymentId() == null || p.orderId() <= 0 || p.paidAt() == null) {
                    throw new PoisonRecord("payment without paymentId, orderId or paidAt");
                }
                PaymentResult result = Payments.apply(c, p, traceId, paymentTimeout);
                metrics.counter("seckill_payments", "result", result.name()).increment();
                if (result == PaymentResult.REFUSED) {
                    LOG.info("payment {} of order {} (paid at {}) refused: the provider must refund it", p.paymentId(), p.orderId(), p.paidAt());
                }
                return false;
            }
            LedgerEntry e = parse(r, LedgerEntry.class);
            if (e.type() == null || e.opId() == null || e.goodsId() <= 0) throw new PoisonRecord("ledger entry without type, opId or goodsId");
            LedgerEffect effect = StockLedger.applyLedger(c, e, traceId);
            if (e.type() == LedgerType.RELEASED && effect != LedgerEffect.NONE) {
                metrics.counter("seckill_writer_releases", "effect", effect.name()).increment();
            }
            if (effect == LedgerEffect.PAID_ORDER_RELEASED) {
                metrics.counter("seckill_writer_paid_order_released").increment();
                LOG.error("RELEASED ledger entry {} gave back units of a PAID order (goods {}, user {}): recorded in order_anomaly",
                        e.opId(), e.goodsId(), e.userId());
            }
            return effect != LedgerEffect.NONE;
        } finally {
            MDC.remove("traceId");
        }
    }

    private static <T> T parse(ConsumerRecord<String, byte[]> r, Class<T> type) throws PoisonRecord {
        try {
            return Json.read(r.value(), type);
        } catch (RuntimeException e) {
            throw new PoisonRecord("malformed " + type.getSimpleName() + ": " + e.getMessage());
        }
    }

    /** SQL states 22 (data) and 23 (integrity): the record is at fault, not the database. */
    private static boolean isDataError(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23"));
    }

    private void sendToDlq(Poison p) {
        ProducerRecord<String, byte[]> out = new ProducerRecord<>(topics.dlq(), p.record().key(), p.record().value());
        p.record().headers().forEach(h -> out.headers().add(h));
        out.headers().add("error", p.reason().getBytes(StandardCharsets.UTF_8));
        out.headers().add("source-topic", p.record().topic().getBytes(StandardCharsets.UTF_8));
        out.headers().add("source-partition", Integer.toString(p.record().partition()).getBytes(StandardCharsets.UTF_8));
        out.headers().add("source-offset", Long.toString(p.record().offset()).getBytes(StandardCharsets.UTF_8));
        int attempts = Math.max(1, settings.getInt("writer.dlq.attempts", 5));
        long backoffMs = settings.getLong("writer.dlq.backoff.ms", 200);
        for (int attempt = 1; ; attempt++) {
            try {
                dlq.send(out).get(30, TimeUnit.SECONDS);
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while writing to the DLQ", e);
            } catch (Exception e) {
                metrics.counter("seckill_writer_dlq_send_failures").increment();
                String why = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause().toString() : e.toString();
                // the batch's offsets are not committed: the record is redelivered to whoever consumes next
                if (attempt >= attempts) throw new IllegalStateException("cannot write to the DLQ after " + attempt + " attempts: " + why, e);
                LOG.warn("DLQ send failed (attempt {} of {}), retrying in {} ms: {}", attempt, attempts, backoffMs, why);
                try {
                    Thread.sleep(backoffMs); // backoff between DLQ attempts, on the consumer thread (the batch waits anyway)
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while writing to the DLQ", ie);
                }
                backoffMs = Math.min(backoffMs * 2, 5000);
            }
        }
        metrics.counter("seckill_dlq_records", "source", "order-writer").increment();
        LOG.warn("record {}-{}@{} sent to the DLQ: {}", p.record().topic(), p.record().partition(), p.record().offset(), p.reason());
    }

    /**
     * Commits the consumer's positions (everything polled is written by now) when they moved. Positions rather than
     * last offset + 1, so that the committed offset also steps over the transaction markers of the outcome and ledger
     * topics: an idle writer then shows zero lag, which is what the reconciler's grace is measured against.
     */
    private void commitPositions() { commit(positions(), false); }

    /** Where the consumer stands now on each assigned partition (past transaction markers too). */
    private Map<TopicPartition, OffsetAndMetadata> positions() {
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) positions.put(tp, new OffsetAndMetadata(consumer.position(tp)));
        return positions;
    }

    /**
     * Commits offsets of partitions still assigned, when they moved: asynchronously in the loop (a lost commit only
     * means a redelivery, which the op_id claims make a no-op), synchronously before partitions are handed over.
     */
    private void commit(Map<TopicPartition, OffsetAndMetadata> offsets, boolean sync) {
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>(offsets);
        positions.keySet().retainAll(consumer.assignment());
        if (positions.isEmpty() || positions.equals(pending)) return;
        pending = positions;
        if (sync) {
            consumer.commitSync(positions, Duration.ofSeconds(10));
            return;
        }
        consumer.commitAsync(positions, (o, error) -> {
            if (error != null) LOG.debug("offset commit failed (records will be redelivered, harmlessly): {}", error.getMessage());
        });
    }

    public HikariDataSource dataSource() { return db; }

    @Override public void close() {
        if (sweeps != null) {
            sweeps.shutdownNow();
            try {
                sweeps.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (running.compareAndSet(true, false)) {
            consumer.wakeup();
            try {
                stopped.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (dlq != null) dlq.close(Duration.ofSeconds(5));
        if (admin != null) admin.close(Duration.ofSeconds(5));
        if (db != null) db.close();
    }

    private record Poison(ConsumerRecord<String, byte[]> record, String reason) {}

    public static void main(String[] args) throws Exception {
        // the writer serves /metrics itself, next to /health (null: ServiceMain starts no metrics server of its own)
        ServiceMain.run("order-writer", null, 0, (settings, registry) -> {
            OrderWriterApp app = new OrderWriterApp(settings, registry).start();
            StatusServer status = StatusServer.start(registry, app::health, settings.getInt("writer.metrics.port", 9403));
            System.out.println("order-writer: metrics on http://127.0.0.1:" + status.port() + "/metrics, health on /health");
            return () -> {
                app.close();
                status.close();
            };
        });
    }
}
