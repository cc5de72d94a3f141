package dev.seckill.gateway.status;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.params.SetParams;

/**
 * The purchase status every gateway instance answers from, in Redis beside the sale's keys: one string per requestId
 * ({@link RedisKeys#purchaseStatus}), written PENDING by the gateway that accepted it and overwritten by the outcome
 * once stock-stream's transaction committed it ({@link StatusIndexer}). One requestId stands for one purchase here: the
 * first the store learned of (a gateway's claim, else the first outcome indexed); outcomes of other purchases under the
 * same id stay on the outcome topics only. Survives gateway restarts; what each entry lives is its {@link Retention}.
 * Redis can lose writes: the store then knows it is not {@link #complete} until the indexer has rebuilt it from the
 * committed outcome topics ({@link IndexProgress}).
 */
public final class PurchaseStatusStore {
    /**
     * A claim's verdict: what the store held before it (Unknown for a new claim) and, when that was another purchase,
     * the field in which it differs ({@link Payload#differingField}); null for a new claim or the same purchase.
     */
    public record Claimed(PurchaseStatus previous, String differs) {}

    /** What the indexer's write of an outcome did. */
    public enum Indexed {
        /** Written: the store held nothing for the requestId, or the PENDING claim of this purchase. */
        WRITTEN,
        /** Kept: the store holds this purchase's outcome already (a re-delivery). */
        ALREADY,
        /** Kept: the store holds another purchase under this requestId (another goods, buyer or quantity). */
        OTHER_PURCHASE,
        /** Not written: its retention, counted from its decision, is over (a rebuild reading old outcomes). */
        EXPIRED
    }

    /**
     * How long the store keeps what it holds: a decided purchase ({@code decided}, from its decision), a REJECTED
     * {@code no_sale}/{@code invalid} ({@code rejected}), a claim not decided yet ({@code pending}: the expected lag; a
     * claim a draw holds: until the draw's cutoff and this bound after it, {@link #claim}).
     */
    public record Retention(Duration decided, Duration rejected, Duration pending) {
        /** The retention of one outcome: {@code rejected} for no_sale and invalid, {@code decided} for the rest. */
        long keepMs(Outcome o) {
            boolean refused = o.outcome() == OutcomeKind.REJECTED
                    && ("no_sale".equals(o.reason()) || "invalid".equals(o.reason()));
            return (refused ? rejected : decided).toMillis();
        }
    }

    /**
     * One Redis call queue per job, so that a flood of one cannot starve another: claims and the door's lookups
     * ({@code claims}), the GETs' lookups ({@code reads}), the indexer's writes ({@code index}).
     */
    public record Lanes(RedisBatcher claims, RedisBatcher reads, RedisBatcher index) {
        /** One queue for every job (tests, the warm-up). */
        public static Lanes shared(RedisBatcher one) {
            return new Lanes(one, one, one);
        }
    }

    static final Duration WAIT_AT_MOST = Duration.ofMillis(500);
    private final Lanes lanes;
    private final RedisKeys keys;
    private final Retention retention;
    private final Clock clock;
    /** Whether the store holds every purchase the committed outcomes decided, up to the normal lag (the indexer says). */
    private volatile boolean complete;

    private volatile int partitions = Integer.MAX_VALUE;

    public PurchaseStatusStore(Lanes lanes, RedisKeys keys, Retention retention, Clock clock) {
        this.lanes = lanes;
        this.keys = keys;
        this.retention = retention;
        this.clock = clock;
    }

    public RedisKeys keys() {
        return keys;
    }

    long pendingMs() {
        return retention.pending().toMillis();
    }

    /**
     * True when the store holds every purchase up to the normal lag, so that a requestId it does not hold was never
     * accepted (or is past its retention); false while it rebuilds after Redis lost writes, before the indexer first
     * said so, or when it cannot tell: then "no such purchase" is not an answer (503 with Retry-After).
     */
    public boolean complete() {
        return complete;
    }

    void complete(boolean holdsEverything) {
        this.complete = holdsEverything;
    }

    /** The outcome partitions there are (the indexer says at start): complete means every one is marked ready. */
    void partitions(int count) {
        this.partitions = count;
    }

    /**
     * Claims a client-chosen requestId for this purchase before its command is sent (SET NX GET: one round trip,
     * atomic; the value is the purchase itself), so that one requestId can never be accepted for two purchases, by two
     * instances or two connections at once: the second learns at once that the id stands for another purchase (another
     * buyer's, or the same buyer's of another goods or quantity) instead of a 202 that no outcome of its own follows.
     * A claim lives {@link Retention#pending} (a purchase a draw holds: until its draw's cutoff and the bound after it,
     * {@link DrawWait#heldUntilMs}, so a long window neither says NOT_RECEIVED nor frees its requestId), and is added
     * to the buyer's list of the goods (not waited for), for as long.
     */
    public CompletableFuture<Claimed> claim(PurchaseStatus.Pending p) {
        String listKey = keys.buyerPurchases(p.goodsId(), p.userId());
        long pendingMs = claimMs(p);
        return bounded(lanes.claims()
                        .submit(pipe -> pipe.setGet(
                                keys.purchaseStatus(p.requestId()),
                                p.encode(),
                                SetParams.setParams().nx().px(pendingMs))))
                .thenApply(stored -> {
                    PurchaseStatus previous = PurchaseStatus.parse(stored);
                    Payload held = previous.payload();
                    if (held == null)
                        StatusScripts.LIST.run(
                                lanes.claims(),
                                List.of(listKey),
                                List.of(
                                        p.requestId(),
                                        BuyerPurchases.pending(clock.millis(), p.draw()),
                                        Long.toString(pendingMs),
                                        BuyerPurchases.MAX_LISTED));
                    return new Claimed(
                            previous,
                            held == null
                                    ? null
                                    : held.differingField(new Payload(p.goodsId(), p.userId(), p.quantity())));
                });
    }

    /** How long a claim lives: the pending bound, or until the draw that holds the purchase is due and the bound. */
    long claimMs(PurchaseStatus.Pending p) {
        long pendingMs = retention.pending().toMillis();
        if (p.draw() == null) return pendingMs;
        long now = clock.millis();
        return Math.max(pendingMs, p.draw().heldUntilMs(p.acceptedAt().toEpochMilli(), pendingMs) - now);
    }

    /**
     * Records an outcome where the store holds nothing for its requestId or the PENDING claim of this very purchase
     * ({@link StatusScripts#INDEX}), for what is left of its retention counted from its decision (nothing once that is over:
     * a rebuild does not bring back what had expired), and in its buyer's list of the goods. An outcome of another
     * purchase under the same requestId (an upstream producer's, on another goods; the stream's refusal of a reused id)
     * never replaces the one the store holds.
     */
    public CompletableFuture<Indexed> decided(Outcome o) {
        long ttl = o.decidedAt() == null
                ? retention.keepMs(o)
                : retention.keepMs(o)
                        - Math.max(0, clock.millis() - o.decidedAt().toEpochMilli());
        if (ttl <= 0) return CompletableFuture.completedFuture(Indexed.EXPIRED);
        List<String> key = List.of(keys.purchaseStatus(o.requestId()));
        List<String> args = List.of(
                PurchaseStatus.encode(o),
                Long.toString(o.goodsId()),
                Long.toString(o.userId()),
                Integer.toString(o.quantity()),
                Long.toString(ttl));
        CompletableFuture<Indexed> written = StatusScripts.INDEX
                .run(lanes.index(), key, args)
                .thenApply(r -> r instanceof Long l && l == 1
                        ? Indexed.WRITTEN
                        : r instanceof Long l && l == 0 ? Indexed.ALREADY : Indexed.OTHER_PURCHASE);
        CompletableFuture<Object> listed = StatusScripts.LIST.run(
                lanes.index(),
                List.of(keys.buyerPurchases(o.goodsId(), o.userId())),
                List.of(o.requestId(), BuyerPurchases.value(o), Long.toString(ttl), BuyerPurchases.MAX_LISTED));
        return written.thenCombine(listed, (w, l) -> w);
    }

    /**
     * What the store holds for a requestId, and whether it is {@link #complete} at that very moment: the ready marks
     * are read in the same pipeline as the entry, so a Redis that came back empty (marks and entries gone together) is
     * never taken for one that holds everything, even before the indexer noticed.
     */
    public record Found(PurchaseStatus status, boolean complete, boolean afterLoss) {
        /** The store would hold this id if it had been accepted: complete, and no loss within the pending bound. */
        public boolean sureOfAbsence() {
            return complete && !afterLoss;
        }
    }

    /** A GET's lookup, in the reads' queue. */
    public CompletableFuture<Found> lookup(String requestId) {
        return find(lanes.reads(), requestId);
    }

    /** The door's lookup (the sold-out check of a client's requestId): in the claims' queue, not the GETs'. */
    public CompletableFuture<Found> lookupAtDoor(String requestId) {
        return find(lanes.claims(), requestId);
    }

    private CompletableFuture<Found> find(RedisBatcher lane, String requestId) {
        CompletableFuture<PurchaseStatus> status =
                lane.submit(pipe -> pipe.get(keys.purchaseStatus(requestId))).thenApply(PurchaseStatus::parse);
        return bounded(status.thenCombine(vouch(lane), (held, v) -> new Found(held, v.complete(), v.afterLoss())));
    }

    /** What the store can vouch for now: every partition marked ready, and whether a loss is within the bound. */
    private record Vouch(boolean complete, boolean afterLoss) {}

    /**
     * The ready marks and the loss marker, queued right after the caller's read of an entry (one pipeline, as above).
     */
    private CompletableFuture<Vouch> vouch(RedisBatcher lane) {
        CompletableFuture<Long> marks = lane.submit(pipe -> pipe.hlen(keys.statusReady()));
        CompletableFuture<Boolean> lost = lane.submit(pipe -> pipe.exists(keys.statusLost()));
        return marks.thenCombine(lost, (ready, loss) -> new Vouch(complete && ready >= partitions, loss));
    }

    /** A buyer's list of a goods, and whether the store can vouch for it (as {@link Found#complete}). */
    public record Listed(Map<String, String> held, boolean complete, boolean afterLoss) {}

    /** The purchases one buyer made of one goods, by requestId ({@link BuyerPurchases}). */
    public CompletableFuture<Listed> purchasesOf(long goodsId, long userId) {
        RedisBatcher lane = lanes.reads();
        CompletableFuture<Map<String, String>> held =
                lane.submit(pipe -> pipe.hgetAll(keys.buyerPurchases(goodsId, userId)));
        return bounded(held.thenCombine(vouch(lane), (h, v) -> new Listed(h, v.complete(), v.afterLoss())));
    }

    /** How many outcome partitions the ready marks say the store holds (the indexer's check of {@link #complete}). */
    CompletableFuture<Long> readyPartitions() {
        return lanes.index().submit(pipe -> pipe.hlen(keys.statusReady()));
    }

    /**
     * A request waits on Redis at most {@link #WAIT_AT_MOST}: past it the caller goes on as when Redis refuses (a
     * purchase is sent unclaimed, a GET knows what this instance knows), so an unreachable Redis never holds requests.
     */
    private static <T> CompletableFuture<T> bounded(CompletableFuture<T> f) {
        return f.orTimeout(WAIT_AT_MOST.toMillis(), TimeUnit.MILLISECONDS);
    }
}
