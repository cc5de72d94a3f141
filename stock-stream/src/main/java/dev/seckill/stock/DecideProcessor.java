package dev.seckill.stock;

import dev.seckill.stock.decision.Decider;
import dev.seckill.stock.decision.Decision;
import io.micrometer.core.instrument.MeterRegistry;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Runs the {@link Decider} on each command record; a record headed for the DLQ gets the DLQ headers here. */
final class DecideProcessor implements FixedKeyProcessor<String, byte[], DecidedRecord> {
    private final Function<FoldStore, Decider> deciderFactory;
    private final MeterRegistry metrics;
    private FixedKeyProcessorContext<String, DecidedRecord> context;
    private Decider decider;

    DecideProcessor(Function<FoldStore, Decider> deciderFactory, MeterRegistry metrics) {
        this.deciderFactory = deciderFactory;
        this.metrics = metrics;
    }

    @Override public void init(FixedKeyProcessorContext<String, DecidedRecord> context) {
        this.context = context;
        KeyValueStore<Long, GoodsFold> store = context.getStateStore(StockTopology.FOLD_STORE);
        this.decider = deciderFactory.apply(new FoldStore() {
            @Override public GoodsFold get(long goodsId) { return store.get(goodsId); }

            @Override public void put(long goodsId, GoodsFold fold) { store.put(goodsId, fold); }
        });
    }

    @Override public void process(FixedKeyRecord<String, byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        Decision decision = decider.decide(record.key(), record.value(), meta.partition(), meta.offset());
        metrics.counter("seckill_commands_processed").increment();
        if (decision.toDlq()) {
            metrics.counter("seckill_dlq_records", "source", "stock-stream").increment();
            Headers h = record.headers();
            put(h, "error", decision.dlqReason());
            put(h, "source-topic", meta.topic());
            put(h, "source-partition", Integer.toString(meta.partition()));
            put(h, "source-offset", Long.toString(meta.offset()));
        }
        context.forward(record.withValue(new DecidedRecord(decision, record.value())));
    }

    private static void put(Headers h, String name, String value) {
        h.remove(name);
        h.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
