package dev.seckill.gateway.warmup;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.gateway.door.SaleWindows;
import dev.seckill.gateway.door.SoldOutMarks;
import dev.seckill.gateway.readside.OutcomeView;
import dev.seckill.gateway.status.PurchaseStatusStore;
import dev.seckill.gateway.status.StatusIndexer;
import dev.seckill.gateway.status.StatusStack;
import dev.seckill.kit.config.Settings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The gateway's read side, warmed on the warm-up's own topics: an {@link OutcomeView} and a {@link StatusIndexer} of
 * the same code follow {@code <prefix>warmup-<run>.outcome.*}, where the warm-up writes made-up outcomes (no stream
 * decides warm-up commands): a few SUCCESS, then SOLD_OUT for half the warm-up goods, so the view's consumer, the
 * indexer's Redis writes (into the warm-up's keys) and the door's sold-out short-circuit run before the sale does.
 */
final class WarmupReadSide implements AutoCloseable {
    /** Goods the made-up outcomes sell out (the others keep going to Kafka). */
    static final List<Long> SOLD_OUT_GOODS = List.of(1L, 2L);

    private final Topics topics;
    private final OutcomeView view;
    private final StatusIndexer indexer;
    private final String group;
    private final List<String> ids = new ArrayList<>();

    WarmupReadSide(
            Settings settings, Topics topics, PurchaseStatusStore store, SaleWindows windows, StatusStack status) {
        this.topics = topics;
        this.view = new OutcomeView(
                settings,
                topics,
                100_000,
                new SoldOutMarks(Duration.ofMinutes(5).toMillis(), (g, since) -> null, System::currentTimeMillis),
                Duration.ofMillis(500),
                windows::invalidate);
        view.draws().pastRead(); // the warm-up's own topics: no past to read
        this.group = topics.prefix() + "gateway-status";
        this.indexer = new StatusIndexer(
                settings, group, topics, store, status.redis(), Duration.ofMinutes(10), Clock.systemUTC());
    }

    OutcomeView view() {
        return view;
    }

    /** The consumer group of the warm-up's indexer (deleted with the warm-up's topics). */
    String group() {
        return group;
    }

    /** Writes {@code n} made-up outcomes of the sold-out goods to the warm-up's outcome topics (not waiting for acks). */
    void feed(KafkaProducer<String, byte[]> producer, String idPrefix, int n) {
        Instant now = Instant.now();
        for (int i = 0; i < n; i++) {
            long goods = SOLD_OUT_GOODS.get(i % SOLD_OUT_GOODS.size());
            OutcomeKind kind = i < 100 ? OutcomeKind.SUCCESS : OutcomeKind.SOLD_OUT;
            String id = idPrefix + i;
            ids.add(id);
            Outcome o = Outcome.of(id, goods, 1 + i, 1, kind, null, Math.max(0, 99 - i), now, now, 0, i);
            producer.send(new ProducerRecord<>(topics.outcome(kind), Long.toString(goods), OutcomeJson.encode(o)));
        }
    }

    /** The requestIds of the made-up outcomes (their status entries are in the warm-up's keys). */
    List<String> ids() {
        return List.copyOf(ids);
    }

    @Override
    public void close() {
        indexer.close();
        view.close();
    }
}
