package dev.seckill.stock;

import dev.seckill.contracts.JsonSerde;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerEntryJson;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.bucket.BucketTerms;
import dev.seckill.stock.bucket.HopOut;
import dev.seckill.stock.bucket.HopSeal;
import dev.seckill.stock.decision.Decider;
import dev.seckill.stock.decision.StockScripts;
import dev.seckill.stock.draw.DrawHold;
import dev.seckill.stock.draw.DrawTerms;
import dev.seckill.stock.draw.DrawWaits;
import dev.seckill.stock.draw.Held;
import dev.seckill.stock.draw.beacon.BeaconSource;
import dev.seckill.stock.ledger.GoodsFold;
import dev.seckill.stock.ledger.HoldingJson;
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
 * The decision topology: commands → the draw's hold (a lottery sale's window waits for its draw, {@link DrawHold}) → one
 * Lua decision per record → the four outcome topics, the ledger and the DLQ.
 * Built by a plain method so the real app and TopologyTestDriver share it.
 */
public final class StockTopology {
    public static final JsonSerde<Outcome> OUTCOME_SERDE = new JsonSerde<>(Outcome.class, OutcomeJson::encode);
    public static final JsonSerde<LedgerEntry> LEDGER_SERDE =
            new JsonSerde<>(LedgerEntry.class, LedgerEntryJson::encode);
    /**
     * The instance id in the Streams configuration (not a Kafka setting: Streams hands it to the processors only), for
     * the {@link dev.seckill.contracts.DecidedBy} header; absent: {@code dynamic}.
     */
    public static final String INSTANCE_CONFIG = "seckill.stream.instance";
    /** The per-goods ledger folds (changelogged, so they commit with the outputs): what {@code restore} rebuilds from. */
    public static final String FOLD_STORE = "goods-fold";

    static final JsonSerde<GoodsFold> FOLD_SERDE = new JsonSerde<>(GoodsFold.class);
    /** Live buyers per goods ({@code goods:user} → holding), beside the folds. */
    public static final String HOLDINGS_STORE = "goods-holdings";

    static final JsonSerde<GoodsFold.Holding> HOLDING_SERDE =
            new JsonSerde<>(GoodsFold.Holding.class, HoldingJson::encode);

    /**
     * Every decision the stream made, per goods and id ({@code goods:r:requestId}, {@code goods:o:opId} → a
     * {@code StoredDecision}), in memory, changelogged: the dedupe of retries and replays and the refusal of reused ids
     * (Redis keeps no decisions). Kept until a week after the goods' sale keys expire ({@link SaleRetirement}).
     */
    public static final String DECISIONS_STORE = "decisions";

    private StockTopology() {}

    /**
     * How the decide step runs, each setting by name.
     *
     * @param batchSize        records decided per pipelined Redis round trip (1: one call per record, no buffering)
     * @param batchLinger      the longest a buffered record waits for its batch to fill
     * @param shortCircuit     whether purchases of a sold-out goods may be answered in memory ({@code SoldOutGate})
     * @param earlyCommitEvery a task asks for its commit at once (at most this often; ZERO: never) when it has just
     *                         decided a command younger than {@code commitInterval} ({@link EarlyCommit})
     * @param commitInterval   the stream's commit interval
     * @param draw             how drawn sales are drawn: the beacon, the allowance, the margin ({@link DrawTerms#OFF}:
     *                         drawn opens are refused)
     */
    public record Settings(
            int batchSize,
            Duration batchLinger,
            boolean shortCircuit,
            Duration earlyCommitEvery,
            Duration commitInterval,
            DrawTerms draw,
            BucketTerms buckets) {
        /** One Redis call per record, the sold-out short-circuit on, no early commit, no drawn sales, no buckets. */
        public static final Settings UNBATCHED = new Settings(
                1, Duration.ofMillis(5), true, Duration.ZERO, Duration.ZERO, DrawTerms.OFF, BucketTerms.OFF);

        public Settings(
                int batchSize,
                Duration batchLinger,
                boolean shortCircuit,
                Duration earlyCommitEvery,
                Duration commitInterval,
                DrawTerms draw) {
            this(batchSize, batchLinger, shortCircuit, earlyCommitEvery, commitInterval, draw, BucketTerms.OFF);
        }

        /**
         * The service's, from its settings, drawing with {@code beacon} (null: drawn opens refused), its commands topic
         * of {@code partitions} partitions.
         */
        public static Settings from(StockStreamSettings s, BeaconSource beacon, int partitions) {
            return new Settings(
                    s.batchSize(),
                    Duration.ofMillis(s.batchLingerMs()),
                    s.shortCircuit(),
                    Duration.ofMillis(s.caughtUpCommitMs()),
                    Duration.ofMillis(s.commitIntervalMs()),
                    beacon == null
                            ? DrawTerms.OFF
                            : new DrawTerms(
                                    beacon,
                                    Duration.ofMillis(s.drawAllowanceMs()),
                                    Duration.ofMillis(s.drawBeaconMarginMs())),
                    new BucketTerms(partitions, new HopSeal(s.hopSecret()), s.bucketPrefetch(), s.bucketReborrowMs()));
        }

        /** These settings with bucketed goods run as {@code terms} say. */
        public Settings bucketing(BucketTerms terms) {
            return new Settings(batchSize, batchLinger, shortCircuit, earlyCommitEvery, commitInterval, draw, terms);
        }

        /** These settings with drawn sales drawn as {@code terms} say. */
        public Settings drawing(DrawTerms terms) {
            return new Settings(batchSize, batchLinger, shortCircuit, earlyCommitEvery, commitInterval, terms, buckets);
        }

        /** These settings with records decided {@code size} at a time, a partial batch waiting at most {@code linger}. */
        public Settings batched(int size, Duration linger) {
            return new Settings(size, linger, shortCircuit, earlyCommitEvery, commitInterval, draw, buckets);
        }
    }

    /**
     * Adds the decide step and its stores to {@code builder}: commands from {@code topics}, decided by {@code scripts}
     * (one per task) as {@code settings} say, outputs to the outcome topics, the ledger and the DLQ.
     */
    public static void build(
            StreamsBuilder builder,
            Topics topics,
            Supplier<StockScripts> scripts,
            Clock clock,
            MeterRegistry metrics,
            Settings settings) {
        addStores(builder);
        Counter hits = Counter.builder("seckill_short_circuit_hits")
                .description("purchases of a sold-out goods answered without Redis")
                .register(metrics);
        DrawWaits waits = DrawWaits.registered(metrics, clock);
        GoodsMeters goodsMeters = new GoodsMeters(metrics);
        KStream<String, Held> held = builder.stream(
                        topics.commands(),
                        Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("commands"))
                .process(
                        () -> new DrawHold(settings.draw(), waits, clock, FOLD_STORE),
                        Named.as("draw-hold"),
                        DrawHold.STORE,
                        FOLD_STORE);
        held.filter((k, h) -> h.isDrawn(), Named.as("drawn"))
                .mapValues(Held::drawn, Named.as("drawn-entry"))
                .to(
                        topics.ledger(),
                        Produced.with(Serdes.String(), LEDGER_SERDE).withName("drawn-ledger"));
        KStream<String, DecidedRecord> decided = held.filter((k, h) -> !h.isDrawn(), Named.as("to-decide"))
                .mapValues(Held::raw, Named.as("command"))
                .processValues(
                        () -> new DecideProcessor(
                                folds -> new Decider(
                                        scripts.get(),
                                        clock,
                                        folds,
                                        settings.shortCircuit(),
                                        hits::increment,
                                        settings.draw(),
                                        settings.buckets()),
                                metrics,
                                goodsMeters,
                                settings),
                        Named.as("decide"),
                        FOLD_STORE,
                        HOLDINGS_STORE,
                        DECISIONS_STORE,
                        BeforeCommitHook.NAME);

        routeOutputs(decided, topics);
        decided.filter((k, d) -> d.decision().hasHops(), Named.as("hopping"))
                .process(() -> new HopOut(settings.buckets().seal()), Named.as("hop-out"))
                .to(
                        topics.commands(),
                        Produced.with(Serdes.String(), HopOut.SERDE)
                                .withStreamPartitioner(HopOut.PARTITIONER)
                                .withName("hops"));
    }

    /**
     * The stores the decide step keeps in its transaction — the folds, holdings, decisions — and its before-commit hook.
     * None is cached: the decide step's buffer is drained by the hook, after which a cached store would flush too late for
     * the commit (Kafka Streams flushes stores in registration order), and the fold would miss writes its outputs have.
     */
    private static void addStores(StreamsBuilder builder) {
        builder.addStateStore(BeforeCommitHook.builder());
        builder.addStateStore(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(FOLD_STORE), Serdes.Long(), FOLD_SERDE));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(HOLDINGS_STORE), Serdes.String(), HOLDING_SERDE));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(DECISIONS_STORE), Serdes.String(), Serdes.String()));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(DrawHold.STORE), Serdes.String(), Serdes.ByteArray()));
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
