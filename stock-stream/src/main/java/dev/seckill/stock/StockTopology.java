package dev.seckill.stock;

import dev.seckill.contracts.JsonSerde;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.decision.Decider;
import dev.seckill.stock.decision.StockScripts;
import dev.seckill.stock.ledger.GoodsFold;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.BranchedKStream;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * The decision topology: commands → one Lua decision per record → the four outcome topics, the ledger and the DLQ.
 * Built by a plain method so the real app and TopologyTestDriver share it.
 */
public final class StockTopology {
    public static final JsonSerde<Outcome> OUTCOME_SERDE = new JsonSerde<>(Outcome.class, OutcomeJson::encode);
    public static final JsonSerde<LedgerEntry> LEDGER_SERDE = new JsonSerde<>(LedgerEntry.class);
    /** The per-goods ledger folds (changelogged, so they commit with the outputs): what {@code restore} rebuilds from. */
    public static final String FOLD_STORE = "goods-fold";

    static final JsonSerde<GoodsFold> FOLD_SERDE = new JsonSerde<>(GoodsFold.class);
    /** Live buyers per goods ({@code goods:user} → holding), beside the folds. */
    public static final String HOLDINGS_STORE = "goods-holdings";

    static final JsonSerde<GoodsFold.Holding> HOLDING_SERDE = new JsonSerde<>(GoodsFold.Holding.class);

    /**
     * Every decision the stream made, per goods and id ({@code goods:r:requestId}, {@code goods:o:opId} → a
     * {@code StoredDecision}), in memory, changelogged: the dedupe of retries and replays and the refusal of reused ids
     * (Redis keeps no decisions). Kept until a week after the goods' sale keys expire ({@link SaleRetirement}).
     */
    public static final String DECISIONS_STORE = "decisions";

    private StockTopology() {}

    public static void build(
            StreamsBuilder builder, Topics topics, Supplier<StockScripts> scripts, Clock clock, MeterRegistry metrics) {
        build(builder, topics, scripts, clock, metrics, 1, Duration.ofMillis(5), true);
    }

    /**
     * @param batchSize records decided per pipelined Redis round trip (1: one call per record, no buffering)
     * @param linger    the longest a buffered record waits for its batch to fill
     * @param shortCircuit whether purchases of a sold-out goods may be answered in memory ({@code SoldOutGate})
     */
    public static void build(
            StreamsBuilder builder,
            Topics topics,
            Supplier<StockScripts> scripts,
            Clock clock,
            MeterRegistry metrics,
            int batchSize,
            Duration linger,
            boolean shortCircuit) {
        build(builder, topics, scripts, clock, metrics, batchSize, linger, shortCircuit, Duration.ZERO, Duration.ZERO);
    }

    /**
     * @param earlyEvery a task asks for its commit at once (at most this often; ZERO: never) when it has just decided a
     *                   command younger than {@code interval}, the commit interval ({@link EarlyCommit})
     */
    public static void build(
            StreamsBuilder builder,
            Topics topics,
            Supplier<StockScripts> scripts,
            Clock clock,
            MeterRegistry metrics,
            int batchSize,
            Duration linger,
            boolean shortCircuit,
            Duration earlyEvery,
            Duration interval) {
        addStores(builder);
        Counter hits = Counter.builder("seckill_short_circuit_hits")
                .description("purchases of a sold-out goods answered without Redis")
                .register(metrics);
        KStream<String, DecidedRecord> decided = builder.stream(
                        topics.commands(),
                        Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("commands"))
                .processValues(
                        () -> new DecideProcessor(
                                folds -> new Decider(scripts.get(), clock, folds, shortCircuit, hits::increment),
                                metrics,
                                batchSize,
                                linger,
                                earlyEvery,
                                interval),
                        Named.as("decide"),
                        FOLD_STORE,
                        HOLDINGS_STORE,
                        DECISIONS_STORE,
                        DecisionBuffer.NAME);

        routeOutputs(decided, topics);
    }

    /**
     * The stores the decide step keeps in its transaction: the decision buffer, the folds, holdings, decisions. None is
     * cached: the decision buffer is drained by a commit hook, after which a cached store would flush too late for the
     * commit (Kafka Streams flushes stores in registration order), and the fold would miss writes its outputs have.
     */
    private static void addStores(StreamsBuilder builder) {
        builder.addStateStore(DecisionBuffer.builder());
        builder.addStateStore(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(FOLD_STORE), Serdes.Long(), FOLD_SERDE));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(HOLDINGS_STORE), Serdes.String(), HOLDING_SERDE));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(DECISIONS_STORE), Serdes.String(), Serdes.String()));
    }

    /** Each decision to where it goes: poison to the DLQ, stock changes to the ledger, outcomes to the topic of their kind. */
    private static void routeOutputs(KStream<String, DecidedRecord> decided, Topics topics) {
        decided.filter((k, d) -> d.decision().toDlq(), Named.as("poison"))
                .mapValues(DecidedRecord::raw, Named.as("raw"))
                .to(
                        topics.dlq(),
                        Produced.with(Serdes.String(), Serdes.ByteArray()).withName("dlq"));

        decided.filter((k, d) -> d.decision().hasLedger(), Named.as("changes"))
                .mapValues(d -> d.decision().ledger(), Named.as("ledger-entry"))
                .to(
                        topics.ledger(),
                        Produced.with(Serdes.String(), LEDGER_SERDE).withName("ledger"));

        BranchedKStream<String, Outcome> byKind = decided.filter(
                        (k, d) -> d.decision().hasOutcome(), Named.as("decided"))
                .mapValues(d -> d.decision().outcome(), Named.as("outcome"))
                .split(Named.as("outcome-"));
        for (OutcomeKind kind : OutcomeKind.values()) {
            byKind = byKind.branch(
                    (k, o) -> o.outcome() == kind,
                    Branched.withConsumer(
                            s -> s.to(
                                    topics.outcome(kind),
                                    Produced.with(Serdes.String(), OUTCOME_SERDE)
                                            .withName("to-" + kind)),
                            kind.name().toLowerCase()));
        }
    }
}
