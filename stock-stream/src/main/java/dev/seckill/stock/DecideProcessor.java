package dev.seckill.stock;

import dev.seckill.contracts.DecidedBy;
import dev.seckill.contracts.dlq.DeadLetters;
import dev.seckill.stock.bucket.Hop;
import dev.seckill.stock.bucket.HopSeal;
import dev.seckill.stock.decision.Decider;
import dev.seckill.stock.decision.Decision;
import dev.seckill.stock.decision.RedisWaits;
import dev.seckill.stock.draw.DecideNow;
import dev.seckill.stock.draw.HeldOrigin;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorNode;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Runs the {@link Decider} on command records. Records are buffered (up to {@code batchSize}) and decided together
 * with one pipelined Redis round trip, in input order; the buffer is drained when full, by a wall-clock punctuator
 * every {@code linger}, and — through {@link BeforeCommitHook} — before every commit of the task, so exactly-once
 * holds. A record headed for the DLQ gets the DLQ headers here.
 */
final class DecideProcessor implements FixedKeyProcessor<String, byte[], DecidedRecord> {
    private record Pending(
            FixedKeyRecord<String, byte[]> record,
            ProcessorRecordContext recordContext,
            Decider.Input input,
            String topic) {}

    private static final Duration PURGE_EVERY = Duration.ofMinutes(1);
    /** How often the keys of goods answered by the sold-out gate are checked against the fold. */
    private static final Duration VERIFY_GATE_EVERY = Duration.ofSeconds(1);

    private final Function<FoldStore, Decider> deciderFactory;
    private final MeterRegistry metrics;
    private final GoodsMeters goodsMeters;
    private final int batchSize;
    private final Duration linger;
    private final EarlyCommit earlyCommit;
    private final HopSeal seal;
    private final List<Pending> buffer = new ArrayList<>();
    /**
     * A full batch's decisions, forwarded while Redis decides the next batch (its round trip and the Kafka work of the
     * batch before overlap: docs/performance.md, "Where the time goes"); forwarded before anything else is.
     */
    private List<Pending> unforwarded = List.of();

    private List<Decision> unforwardedDecisions = List.of();
    private FixedKeyProcessorContext<String, DecidedRecord> context;
    private InternalProcessorContext<String, DecidedRecord> internal;
    private ProcessorNode<?, ?, ?, ?> node;
    private Decider decider;
    /** This run of the task: on every record it forwards ({@link DecidedBy}). */
    private DecidedBy run;

    private Counter processed;
    private Counter dlq;

    /**
     * @param goodsMeters the per-goods series every forwarded decision updates
     * @param settings the batch size and linger, and when a commit is asked for at once ({@link EarlyCommit})
     */
    DecideProcessor(
            Function<FoldStore, Decider> deciderFactory,
            MeterRegistry metrics,
            GoodsMeters goodsMeters,
            StockTopology.Settings settings) {
        this.goodsMeters = goodsMeters;
        this.earlyCommit = new EarlyCommit(
                settings.earlyCommitEvery().toMillis(),
                settings.commitInterval().toMillis());
        this.deciderFactory = deciderFactory;
        this.metrics = metrics;
        this.batchSize = settings.batchSize();
        this.seal = settings.buckets().seal();
        this.linger = settings.batchLinger();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void init(FixedKeyProcessorContext<String, DecidedRecord> context) {
        // a task Kafka Streams revives in this instance: what it buffered was aborted, and is consumed again
        buffer.clear();
        unforwarded = List.of();
        this.context = context;
        this.run = DecidedBy.newRun((String) context.appConfigs().get(StockTopology.INSTANCE_CONFIG));
        earlyCommit.started();
        this.processed = metrics.counter("seckill_commands_processed");
        this.dlq = metrics.counter("seckill_dlq_records", "source", "stock-stream");
        KeyValueStore<Long, GoodsFold> store = context.getStateStore(StockTopology.FOLD_STORE);
        KeyValueStore<String, GoodsFold.Holding> holdings = context.getStateStore(StockTopology.HOLDINGS_STORE);
        KeyValueStore<String, String> decisions = context.getStateStore(StockTopology.DECISIONS_STORE);
        this.decider = deciderFactory.apply(StateStoreFolds.over(store, holdings, decisions));
        SaleRetirement retirement = new SaleRetirement(store, holdings, decisions);
        context.schedule(
                PURGE_EVERY,
                PunctuationType.WALL_CLOCK_TIME,
                t -> retirement.purge(t).forEach(goodsMeters::retire));
        context.schedule(VERIFY_GATE_EVERY, PunctuationType.WALL_CLOCK_TIME, t -> decider.verifyGate());
        if (batchSize > 1 && context instanceof InternalProcessorContext<?, ?> ipc) {
            internal = (InternalProcessorContext<String, DecidedRecord>) ipc;
            node = internal.currentNode();
            BeforeCommitHook hook = context.getStateStore(BeforeCommitHook.NAME);
            hook.beforeCommit(() -> drain(false, false));
            // under load the linger, not a full buffer, ends most batches (a drain takes about a linger): a batch that
            // big is kept to forward during the next round trip too; a quiet stream's few records go out at once
            context.schedule(linger, PunctuationType.WALL_CLOCK_TIME, t -> drain(true, buffer.size() >= overlapFrom()));
        }
    }

    @Override
    public void close() {
        buffer.clear();
        unforwarded = List.of();
    }

    @Override
    public void process(FixedKeyRecord<String, byte[]> record) {
        // a command the draw held is judged at its own position, not at the record being processed when it was released
        HeldOrigin held = HeldOrigin.take(record.headers());
        boolean drawEntry = HeldOrigin.takeEntry(record.headers());
        // a drawn open is decided at once: the hold holds nothing before it knows the open stood
        boolean decideNow = DecideNow.take(record.headers());
        RecordMetadata meta = held == null ? context.recordMetadata().orElseThrow() : null;
        HopSeal.Opened opened = seal.open(record.headers(), record.value());
        Hop hop = opened instanceof HopSeal.Sealed s ? s.hop() : null;
        Pending p = new Pending(
                record,
                internal == null ? null : internal.recordContext(),
                held == null
                        ? new Decider.Input(
                                record.key(), record.value(), meta.partition(), meta.offset(), record.timestamp(), hop)
                        : new Decider.Input( // a hop held behind a draw's release is still a hop
                                record.key(),
                                record.value(),
                                held.partition(),
                                held.offset(),
                                held.timestamp(),
                                hop,
                                drawEntry),
                held == null ? meta.topic() : held.topic());
        if (opened instanceof HopSeal.Broken broken) { // a forged or damaged hop: decided by no one
            if (internal == null) forward(p, Decision.dlq(broken.why()));
            else {
                drain(false, false); // after everything before it
                forwardAll(List.of(p), List.of(Decision.dlq(broken.why())));
            }
            return;
        }
        if (internal == null) {
            DecisionSpans.Batch spans = DecisionSpans.begin(RedisWaits::onThisThread);
            Decision decision = decider.decideAll(List.of(p.input())).get(0);
            if (spans != null) spans.record(record.headers(), p.topic(), record.key(), decision, 1);
            forward(p, decision);
            return;
        }
        buffer.add(p);
        if (buffer.size() >= batchSize || decideNow) drain(true, !decideNow);
    }

    /**
     * Decides everything buffered (one pipelined round trip, while the previous full batch is forwarded) and forwards
     * it in input order, or — {@code defer}, a full batch with more coming — keeps it to forward during the next batch's
     * round trip. {@code mayCommit}: then asks for the commit at once when the stream is caught up (not from the drain
     * that a commit itself runs, which forwards everything).
     */
    private void drain(boolean mayCommit, boolean defer) {
        if (buffer.isEmpty()) {
            forwardUnforwarded();
            return;
        }
        List<Pending> batch = new ArrayList<>(buffer);
        buffer.clear();
        DecisionSpans.Batch spans = DecisionSpans.begin(RedisWaits::onThisThread);
        List<Decision> decisions =
                decider.decideAll(batch.stream().map(Pending::input).toList(), this::forwardUnforwarded);
        if (spans != null)
            for (int i = 0; i < batch.size(); i++) {
                Pending p = batch.get(i);
                spans.record(p.record().headers(), p.topic(), p.record().key(), decisions.get(i), batch.size());
            }
        metrics.summary("seckill_decision_batch_size").record(batch.size());
        forwardUnforwarded(); // run while Redis answered, or before the decider returned: nothing is left by now
        if (defer) {
            unforwarded = batch;
            unforwardedDecisions = decisions;
            return;
        }
        forwardAll(batch, decisions);
        if (mayCommit && earlyCommit.due(batch.get(batch.size() - 1).input().timestamp(), System.currentTimeMillis()))
            context.commit();
    }

    /** The smallest batch whose outputs wait for the next batch's round trip: a buffer this full means load. */
    private int overlapFrom() {
        return Math.max(2, batchSize / 8);
    }

    private void forwardUnforwarded() {
        if (unforwarded.isEmpty()) return;
        List<Pending> batch = unforwarded;
        unforwarded = List.of();
        forwardAll(batch, unforwardedDecisions);
    }

    private void forwardAll(List<Pending> batch, List<Decision> decisions) {
        ProcessorNode<?, ?, ?, ?> previousNode = internal.currentNode();
        ProcessorRecordContext previousContext = internal.recordContext();
        try {
            internal.setCurrentNode(node);
            for (int i = 0; i < batch.size(); i++) {
                internal.setRecordContext(batch.get(i).recordContext());
                forward(batch.get(i), decisions.get(i));
            }
        } finally {
            internal.setCurrentNode(previousNode);
            internal.setRecordContext(previousContext);
        }
    }

    private void forward(Pending p, Decision decision) {
        processed.increment();
        goodsMeters.decided(decision);
        if (decision.toDlq()) {
            dlq.increment();
            DeadLetters.mark(
                    p.record().headers(),
                    decision.dlqReason(),
                    p.topic(),
                    p.input().partition(),
                    p.input().offset());
        }
        run.putOn(p.record().headers());
        context.forward(
                p.record().withValue(new DecidedRecord(decision, p.record().value())));
    }
}
