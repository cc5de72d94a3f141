package dev.seckill.gateway.status;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.retry.Backoff;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * Writes every committed outcome into the {@link PurchaseStatusStore}: a consumer group shared by all gateway
 * instances (each writes the outcomes of its share of the partitions), read_committed, so the store never shows a
 * decision stock-stream's transaction did not commit; pipelined per poll, off the request path. Where it reads from is
 * the store's own record of what it holds ({@link IndexProgress}), not the group's offsets: when Redis lost writes
 * (restarted empty or from an older snapshot) the indexer notices — at the next batch, or within a second when idle
 * — and indexes again from what Redis still holds, or from the outcomes of the retention's span when it holds nothing
 * ({@link IndexRebuild}). Meanwhile the store is not {@link PurchaseStatusStore#complete}. Writing an outcome twice is
 * harmless (an outcome already there is kept). An outcome is written only where the store holds nothing for its
 * requestId or the claim of the same purchase ({@link PurchaseStatusStore#decided}). Purchases are not indexed from the
 * commands topic: measured, indexing every command cost the gateway 40% of its closed-loop throughput on two cores
 * (docs/performance.md); pending ids are known by their claim or their signature ({@code GeneratedIds}) instead.
 */
public final class StatusIndexer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusIndexer.class);
    private static final long CHECK_EVERY_MS = 250;
    private static final AtomicInteger INSTANCES = new AtomicInteger(); // client ids unique in the process
    private final KafkaConsumer<String, byte[]> consumer;
    private final PurchaseStatusStore store;
    private final IndexRebuild rebuild;
    private final int partitions;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile KafkaClientMetrics kafkaMetrics;
    private long nextCheck;

    /** @param redis the status store's Redis (its progress is kept there); @param span how far back a rebuild reads */
    public StatusIndexer(
            Settings settings,
            String groupId,
            Topics topics,
            PurchaseStatusStore store,
            UnifiedJedis redis,
            Duration span,
            Clock clock) {
        this.store = store;
        this.consumer = KafkaClients.consumer(
                settings,
                Map.of(
                        ConsumerConfig.GROUP_ID_CONFIG,
                        groupId,
                        // SeckillOutcomesStuckPending selects its lag by it (client_id=~".*gateway-status.*")
                        ConsumerConfig.CLIENT_ID_CONFIG,
                        "gateway-status-indexer-" + INSTANCES.incrementAndGet(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        2000));
        this.partitions = topics.outcomes().stream()
                .mapToInt(t -> consumer.partitionsFor(t).size())
                .sum();
        store.partitions(partitions);
        this.rebuild =
                new IndexRebuild(consumer, new IndexProgress(redis, store.keys(), store.pendingMs()), span, clock);
        consumer.subscribe(topics.outcomes(), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
                rebuild.assigned(assigned);
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
                rebuild.revoked(revoked);
            }
        });
        this.thread = new Thread(this::run, "gateway-status-indexer");
        thread.setDaemon(true);
        thread.start();
    }

    /** How many outcome partitions there are: the store is complete when every one of them is marked ready. */
    public int partitions() {
        return partitions;
    }

    /** The consumer's series ({@code kafka_consumer_*}: the lag SeckillOutcomesStuckPending reads), until close. */
    public void bindTo(MeterRegistry metrics) {
        KafkaClientMetrics binder = new KafkaClientMetrics(consumer);
        binder.bindTo(metrics);
        kafkaMetrics = binder;
    }

    /** Partitions this instance is rebuilding now (for the gauge and tests). */
    public int rebuilding() {
        return rebuild.rebuilding();
    }

    private void run() {
        try {
            while (running) {
                try {
                    index(consumer.poll(Duration.ofMillis(100)));
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) { // Redis refused: nothing advanced, the next round writes it again
                    store.complete(false); // not vouched for until a check passes (an idle indexer's check failed)
                    LOG.warn("status index: {}; retrying", e.toString());
                    pause(500);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("the status index stopped (GET answers 503 for what it cannot tell): {}", e.toString());
        } finally {
            store.complete(false);
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void index(ConsumerRecords<String, byte[]> records) {
        List<Supplier<CompletableFuture<?>>> writes = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            try {
                Outcome o = Json.read(r.value(), Outcome.class);
                if (o.requestId() == null || o.outcome() == null || o.decidedAt() == null)
                    throw new IllegalArgumentException("no requestId, outcome or decidedAt");
                writes.add(() -> store.decided(o).thenAccept(done -> kept(o, done)));
            } catch (RuntimeException e) {
                LOG.warn(
                        "status index skips an unreadable record {}-{}@{}: {}",
                        r.topic(),
                        r.partition(),
                        r.offset(),
                        e.getMessage());
            }
        }
        if (!writes.isEmpty() && !writeAll(writes)) return; // closing: nothing advanced past what is not written
        if (!records.isEmpty()) {
            rebuild.advance(records.partitions()); // only once the batch is in Redis
            commit();
        }
        long now = System.currentTimeMillis();
        if (now >= nextCheck) {
            nextCheck = now + CHECK_EVERY_MS;
            rebuild.check();
            store.complete(completeNow());
        }
        rebuild.settle();
    }

    private boolean completeNow() {
        try {
            return store.readyPartitions().get(5, TimeUnit.SECONDS) >= partitions;
        } catch (Exception e) {
            return false; // cannot tell: not complete
        }
    }

    /** The group's offsets are for lag monitoring only: positions come from the store's own progress. */
    private void commit() {
        try {
            consumer.commitSync();
        } catch (CommitFailedException | RebalanceInProgressException e) {
            LOG.info("status index: commit skipped ({})", e.getClass().getSimpleName());
        }
    }

    private static void kept(Outcome o, PurchaseStatusStore.Indexed done) {
        if (done != PurchaseStatusStore.Indexed.OTHER_PURCHASE) return;
        LOG.info(
                "status index keeps what it holds for requestId {}: the {} outcome of goods {}, buyer {} is another "
                        + "purchase's{}",
                o.requestId(),
                o.outcome(),
                o.goodsId(),
                o.userId(),
                o.detail() == null ? "" : " (" + o.detail() + ")");
    }

    /**
     * Writes the batch, retrying with backoff while Redis refuses it: the progress is not advanced before it is in.
     * False when the indexer closes first (the batch is then not written, and nothing may say it is).
     */
    private boolean writeAll(List<Supplier<CompletableFuture<?>>> writes) {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2));
        while (running) {
            try {
                CompletableFuture.allOf(writes.stream().map(Supplier::get).toArray(CompletableFuture[]::new))
                        .get(30, TimeUnit.SECONDS);
                return true;
            } catch (Exception e) {
                LOG.warn("status index: Redis did not take {} writes ({}); retrying", writes.size(), e.getMessage());
                store.complete(false);
                pause(backoff.nextMillis());
            }
        }
        return false;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms); // backoff between Redis retries
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (kafkaMetrics != null) kafkaMetrics.close(); // after the consumer: its series go with it
    }
}
