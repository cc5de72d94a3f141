package dev.seckill.order.consume;

import dev.seckill.order.write.Batch;
import dev.seckill.order.write.BatchWriter;
import dev.seckill.order.write.DeadLetter;
import dev.seckill.order.write.TopicHandlers;
import dev.seckill.order.write.WrittenBatch;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer loop, pipelined: while the writer thread writes batch N in its DB transaction, this thread polls
 * and decodes batch N+1 (it waits, paused, if N+1 is ready first). Batches are written one at a time and in poll
 * order; a batch's offsets — the consumer's positions right after it was polled — are committed only after its DB
 * commit. On revocation the batch in flight and the one ready are written before the partitions go.
 * <p>Threads: the consumer, the offsets, {@code inFlight} and {@code ready} belong to the loop's own thread
 * ({@code order-writer}; the rebalance callbacks run inside {@code poll} on it). The writer thread
 * ({@code order-writer-db}) sees only an immutable {@link Batch} and hands back an immutable {@link WrittenBatch}. Other
 * threads touch only {@code running}, {@code failure} and {@code stopped} (health, {@link #stop()}).
 */
public final class ConsumerLoop {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);

    private final KafkaConsumer<String, byte[]> consumer;
    private final TopicHandlers handlers;
    private final BatchWriter batchWriter;
    private final DeadLetterWriter deadLetters;
    private final MeterRegistry metrics;
    private final Runnable onFatalEnd;
    private final CommittedOffsets offsets;
    private final ExecutorService writerThread =
            Executors.newSingleThreadExecutor(r -> new Thread(r, "order-writer-db"));
    private final AtomicBoolean running = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile String failure;
    private Future<WrittenBatch> inFlight;
    private Batch ready;

    /** @param onFatalEnd run on the loop's thread, after the consumer is closed, when the loop ended on an error */
    public ConsumerLoop(
            KafkaConsumer<String, byte[]> consumer,
            TopicHandlers handlers,
            BatchWriter batchWriter,
            DeadLetterWriter deadLetters,
            MeterRegistry metrics,
            Runnable onFatalEnd) {
        this.consumer = consumer;
        this.handlers = handlers;
        this.batchWriter = batchWriter;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.onFatalEnd = onFatalEnd;
        this.offsets = new CommittedOffsets(
                consumer,
                () -> metrics.counter("seckill_writer_commit_failures").increment());
    }

    /** Subscribes to the handlers' topics and starts the loop's thread. */
    public void start() {
        consumer.subscribe(handlers.topics(), new Handover());
        running.set(true);
        new Thread(this::run, "order-writer").start();
    }

    public boolean isRunning() {
        return running.get();
    }

    /** Why the loop ended on an error, or null while it has not. */
    public String failure() {
        return failure;
    }

    /** Asks the loop to end (what was written is committed) and waits for it, up to 30 s. */
    public void stop() {
        if (!running.compareAndSet(true, false)) return;
        consumer.wakeup();
        try {
            stopped.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (running.get()) step();
        } catch (RuntimeException e) {
            if (!(e instanceof WakeupException
                    && !running.get())) { // a wakeup is stop() asking; anything else is fatal
                failure = e.getClass().getSimpleName() + ": " + e.getMessage();
                running.set(false);
                LOG.error("order-writer's consumer loop ended on an error: the service is DOWN and exits", e);
            }
        } finally {
            shutDown();
        }
    }

    /** One turn: collect the written batch, hand the ready one to the writer, then poll — or, while one waits, stay paused. */
    private void step() {
        if (inFlight != null && inFlight.isDone()) finish(false);
        if (ready != null && inFlight == null) {
            Batch next = ready;
            ready = null;
            inFlight = writerThread.submit(() -> batchWriter.writeUntilDone(next, running::get));
        }
        if (ready == null) {
            if (!consumer.paused().isEmpty()) consumer.resume(consumer.paused());
            ConsumerRecords<String, byte[]> records =
                    consumer.poll(inFlight == null ? Duration.ofMillis(200) : Duration.ofMillis(5));
            if (!records.isEmpty()) {
                ready = batchOf(records);
            } else if (inFlight == null) {
                offsets.commitPositions(); // moves the committed offsets past transaction markers, so lag reads 0 when
                // idle
            }
        } else {
            awaitWriter(Duration.ofMillis(50));
            consumer.pause(consumer.assignment());
            consumer.poll(Duration.ZERO); // paused: keeps the group membership without fetching more
        }
    }

    private void shutDown() {
        try {
            if (inFlight != null) finish(true);
        } catch (RuntimeException e) {
            LOG.warn("the last batch did not finish (it will be redelivered): {}", e.getMessage());
        }
        writerThread.shutdown();
        offsets.commitLastBeforeClose();
        try {
            consumer.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.debug("consumer close failed: {}", e.getMessage());
        }
        stopped.countDown();
        if (failure != null) onFatalEnd.run();
    }

    private Batch batchOf(ConsumerRecords<String, byte[]> records) {
        List<ConsumerRecord<String, byte[]>> list = new ArrayList<>(records.count());
        records.forEach(list::add);
        return new Batch(list, handlers.pieces(list), offsets.positions());
    }

    private void awaitWriter(Duration max) {
        try {
            inFlight.get(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // still writing (retrying a DB fault, perhaps), or failed: finish() reports it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the batch in flight, sends its dead letters to the DLQ and commits its offsets. */
    private void finish(boolean sync) {
        WrittenBatch written;
        try {
            written = inFlight.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a batch was being written", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } finally {
            inFlight = null;
        }
        if (!written.written()) return; // stopped before it was written: redelivered to whoever comes next
        for (DeadLetter dead : written.deadLetters()) deadLetters.send(dead);
        offsets.commit(written.batch().positionsAfterPoll(), sync);
        metrics.summary("seckill_writer_batch_size")
                .record(written.batch().records().size());
    }

    /** Before partitions go to another member: what was polled from them is written and committed first. */
    private final class Handover implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (inFlight != null) finish(true);
            if (ready != null) {
                Batch batch = ready;
                ready = null;
                inFlight = CompletableFuture.completedFuture(batchWriter.writeUntilDone(batch, running::get));
                finish(true);
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            ready = null; // no longer ours: not written, not committed; the new owner reads them
            if (inFlight != null)
                awaitWriter(Duration.ofSeconds(30)); // its commit fails harmlessly; the op_id claims dedupe
            inFlight = null;
        }
    }
}
