package dev.seckill.gateway.status;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes every committed outcome into the {@link PurchaseStatusStore}: a consumer group shared by all gateway
 * instances (each writes the outcomes of its share of the partitions), read_committed, so the store never shows a
 * decision stock-stream's transaction did not commit; pipelined per poll, off the request path. Offsets are committed
 * after Redis took the batch: a restart writes again what it may not have written, which is harmless (an outcome
 * already there is kept). An outcome is written only where the store holds nothing for its requestId or the claim of the same
 * purchase ({@link PurchaseStatusStore#decided}): an outcome of another purchase under the same id (an upstream
 * producer's on another goods, the stream's REJECTED {@code invalid} of a reused id) never replaces the buyer's own.
 * Purchases are not indexed from the commands topic: measured, indexing every command cost the gateway 40%
 * of its closed-loop throughput on two cores (docs/performance.md); pending ids are known by their claim or their
 * signature ({@code GeneratedIds}) instead.
 */
public final class StatusIndexer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusIndexer.class);
    private final KafkaConsumer<String, byte[]> consumer;
    private final PurchaseStatusStore store;
    private final Thread thread;
    private volatile boolean running = true;

    public StatusIndexer(String bootstrap, String groupId, Topics topics, PurchaseStatusStore store) {
        this.store = store;
        this.consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        groupId,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        2000),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        consumer.subscribe(topics.outcomes());
        this.thread = new Thread(this::run, "gateway-status-indexer");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                List<Supplier<CompletableFuture<?>>> writes = new ArrayList<>();
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    try {
                        Outcome o = Json.read(r.value(), Outcome.class);
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
                if (writes.isEmpty()) continue;
                writeAll(writes);
                try {
                    consumer.commitSync();
                } catch (CommitFailedException | RebalanceInProgressException e) {
                    // another instance joined or left: whoever gets these partitions writes the same values again
                    LOG.info(
                            "status index: commit skipped ({}); the batch will be written again",
                            e.getClass().getSimpleName());
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error(
                    "the status index stopped (GET answers from this instance's own view until a restart): {}",
                    e.toString());
        } finally {
            consumer.close(Duration.ofSeconds(5));
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

    /** Writes the batch, retrying with backoff while Redis refuses it: the offsets are not committed before it is in. */
    private void writeAll(List<Supplier<CompletableFuture<?>>> writes) {
        long backoffMs = 100;
        while (running) {
            try {
                CompletableFuture.allOf(writes.stream().map(Supplier::get).toArray(CompletableFuture[]::new))
                        .get(30, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                LOG.warn("status index: Redis did not take {} writes ({}); retrying", writes.size(), e.getMessage());
                try {
                    Thread.sleep(backoffMs); // backoff between Redis retries
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoffMs = Math.min(backoffMs * 2, 2000);
            }
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
    }
}
