package dev.seckill.gateway.status;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.redis.RedisKeys;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.params.SetParams;

/**
 * The purchase status every gateway instance answers from, in Redis beside the sale's keys: one string per requestId
 * ({@link RedisKeys#purchaseStatus}), written PENDING by the gateway that accepted it and overwritten by the outcome
 * once stock-stream's transaction committed it ({@link StatusIndexer}). Survives gateway restarts; each entry lives
 * {@code retention} (SECKILL_GATEWAY_STATUS_TTL_MS, two days: a sale's life plus a day).
 */
public final class PurchaseStatusStore {
    /** What a client-chosen requestId's claim found. */
    public enum Claim {
        NEW,
        SAME_BUYER,
        OTHER_BUYER
    }

    /** A claim's verdict and what the store held before it (Unknown for a new claim). */
    public record Claimed(Claim claim, PurchaseStatus previous) {}

    static final Duration WAIT_AT_MOST = Duration.ofMillis(500);
    private final RedisBatcher redis;
    private final RedisKeys keys;
    private final long retentionMs;

    public PurchaseStatusStore(RedisBatcher redis, RedisKeys keys, Duration retention) {
        this.redis = redis;
        this.keys = keys;
        this.retentionMs = retention.toMillis();
    }

    /**
     * Claims a client-chosen requestId for this buyer before its command is sent (SET NX GET: one round trip, atomic),
     * so that two buyers can never both be told their purchase was accepted under one requestId: the second learns at
     * once that it belongs to someone else, instead of a 202 that no outcome would ever follow.
     */
    public CompletableFuture<Claimed> claim(PurchaseStatus.Pending p) {
        return bounded(redis.submit(pipe -> pipe.setGet(
                        keys.purchaseStatus(p.requestId()),
                        p.encode(),
                        SetParams.setParams().nx().px(retentionMs)))
                .thenApply(stored -> {
                    PurchaseStatus previous = PurchaseStatus.parse(stored);
                    if (stored == null) return new Claimed(Claim.NEW, previous);
                    Long owner = previous.owner();
                    return new Claimed(
                            owner != null && owner == p.userId() ? Claim.SAME_BUYER : Claim.OTHER_BUYER, previous);
                }));
    }

    /** Records an outcome (overwrites the pending entry). */
    public CompletableFuture<String> decided(Outcome o) {
        return redis.submit(pipe -> pipe.set(
                keys.purchaseStatus(o.requestId()),
                PurchaseStatus.encode(o),
                SetParams.setParams().px(retentionMs)));
    }

    public CompletableFuture<PurchaseStatus> lookup(String requestId) {
        return bounded(
                redis.submit(pipe -> pipe.get(keys.purchaseStatus(requestId))).thenApply(PurchaseStatus::parse));
    }

    /**
     * A request waits on Redis at most {@link #WAIT_AT_MOST}: past it the caller goes on as when Redis refuses (a
     * purchase is sent unclaimed, a GET knows what this instance knows), so an unreachable Redis never holds requests.
     */
    private static <T> CompletableFuture<T> bounded(CompletableFuture<T> f) {
        return f.orTimeout(WAIT_AT_MOST.toMillis(), TimeUnit.MILLISECONDS);
    }
}
