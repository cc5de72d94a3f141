package dev.seckill.gateway.readside;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.gateway.door.SaleBuckets;
import dev.seckill.gateway.door.SoldOutMarks;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's read side: follows the outcome topics and the ledger (read_committed, from the end, no group) and
 * keeps the latest outcomes by requestId (bounded) and feeds the door's {@link SoldOutMarks}: outcomes mark a goods
 * sold out, RELEASED/OPENED/RESTORED ledger entries clear the mark at once, so a release makes the goods buyable
 * again without waiting; OPENED/DRAWN/CLOSED entries keep the lottery windows not drawn yet ({@link DrawWindows}).
 */
public final class OutcomeView implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OutcomeView.class);

    private final Topics topics;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, Outcome> outcomes;
    private final SoldOutMarks soldOut;
    private final DrawWindows draws = new DrawWindows();
    private final SaleBuckets buckets = new SaleBuckets();
    private final AtomicBoolean running = new AtomicBoolean(true);
    /**
     * When a poll last succeeded; it starts at construction: the gateway has just reached Kafka (it provisioned the
     * topics), so a view that has not polled yet is not a Kafka outage (under load the first poll came seconds later,
     * and /health said DOWN instead of warming).
     */
    private final AtomicLong lastPollOk = new AtomicLong(System.currentTimeMillis());

    private final Thread thread;

    private final LongConsumer saleChanged;

    private volatile Consumer<Outcome> onOutcome = o -> {};

    /** @param fetchMaxWait how long the broker may hold a fetch that finds nothing new (Kafka's default 500 ms) */
    public OutcomeView(
            Settings settings,
            Topics topics,
            int capacity,
            SoldOutMarks soldOut,
            Duration fetchMaxWait,
            LongConsumer saleChanged) {
        this.topics = topics;
        this.saleChanged = saleChanged;
        this.soldOut = soldOut;
        this.outcomes = Collections.synchronizedMap(new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Outcome> eldest) {
                return size() > capacity;
            }
        });
        consumer = KafkaClients.consumer(
                settings,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                        (int) fetchMaxWait.toMillis()));
        List<String> followed = new ArrayList<>(topics.outcomes());
        followed.add(topics.ledger());
        TopicProvisioner.assignAll(consumer, followed, true);
        // a bucketed goods' purchases go straight to the partition that claims them: the commands topic's partitions
        buckets.partitions(consumer.partitionsFor(topics.commands()).size());
        thread = new Thread(this::run, "gateway-outcome-view");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running.get()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    try {
                        if (r.topic().equals(topics.ledger())) onLedger(Json.read(r.value(), LedgerEntry.class));
                        else onOutcome(Json.read(r.value(), Outcome.class));
                    } catch (RuntimeException e) {
                        LOG.warn(
                                "ignoring unreadable record {}-{}@{}: {}",
                                r.topic(),
                                r.partition(),
                                r.offset(),
                                e.getMessage());
                    }
                }
                lastPollOk.set(System.currentTimeMillis());
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    /** Called with every outcome after it is in the view (the waiters of {@code Prefer: wait}). */
    public void onOutcome(Consumer<Outcome> listener) {
        this.onOutcome = listener;
    }

    private void onOutcome(Outcome o) {
        outcomes.put(o.requestId(), o);
        onOutcome.accept(o);
        soldOut.outcome(o);
    }

    private void onLedger(LedgerEntry e) {
        draws.onLedger(e);
        // an open says how its sale is split; any entry of a bucketed goods says so too (a view started mid-sale)
        if (e.type() == LedgerType.OPENED || e.bucket() != null) {
            soldOut.split(e.goodsId(), e.bucketCount());
            if (e.type() == LedgerType.OPENED && e.bucket() != null)
                buckets.opened(e.goodsId(), e.bucketCount(), e.bucket().claimBuckets());
            else buckets.split(e.goodsId(), e.bucketCount());
        }
        if (e.type() == LedgerType.RELEASED || e.type() == LedgerType.OPENED || e.type() == LedgerType.RESTORED) {
            soldOut.clear(e.goodsId());
        }
        soldOut.bucketEntry(e); // after a clear: a bucket's entry may say the goods is gone again
        if (e.type() == LedgerType.OPENED || e.type() == LedgerType.CLOSED || e.type() == LedgerType.RESTORED) {
            saleChanged.accept(e.goodsId());
        }
    }

    /** Each goods' buckets, as the ledger says: where a purchase is sent. */
    public SaleBuckets buckets() {
        return buckets;
    }

    /** The lottery windows not drawn yet. */
    public DrawWindows draws() {
        return draws;
    }

    public Outcome outcome(String requestId) {
        return outcomes.get(requestId);
    }

    public boolean knownSoldOut(long goodsId) {
        return soldOut.soldOut(goodsId);
    }

    /** True when the view polled the broker successfully within the last {@code maxAgeMs}. */
    public boolean healthy(long maxAgeMs) {
        return System.currentTimeMillis() - lastPollOk.get() < maxAgeMs;
    }

    @Override
    public void close() {
        running.set(false);
        consumer.wakeup();
    }
}
