package dev.seckill.gateway.status;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.redis.RedisKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.SetParams;

/**
 * The purchase status every gateway instance answers from, in Redis beside the sale's keys: one string per requestId
 * ({@link RedisKeys#purchaseStatus}), written PENDING by the gateway that accepted it and overwritten by the outcome
 * once stock-stream's transaction committed it ({@link StatusIndexer}). One requestId stands for one purchase here: the
 * first the store learned of (a gateway's claim, else the first outcome indexed); outcomes of other purchases under the
 * same id stay on the outcome topics only. Survives gateway restarts; each entry lives
 * {@code retention} (SECKILL_GATEWAY_STATUS_TTL_MS, two days: a sale's life plus a day).
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
        OTHER_PURCHASE
    }

    /**
     * The indexer's write of an outcome, compare-and-set ({@link Indexed}): onto an empty entry or onto the PENDING
     * claim of the same purchase (goodsId, userId, quantity), never onto an outcome already there nor onto another
     * purchase's entry. The stored values are read from its JSON as {@link PurchaseStatus} writes it (no spaces, digits;
     * a requestId cannot hold a quote) and compared as strings, so no long loses precision in Lua's numbers.
     */
    static final String INDEX_SCRIPT = """
            local held = redis.call('GET', KEYS[1])
            if held then
              if string.match(held, '"goodsId":(%d+)') ~= ARGV[2]
                or string.match(held, '"userId":(%d+)') ~= ARGV[3]
                or string.match(held, '"quantity":(%d+)') ~= ARGV[4] then return -1 end
              if string.find(held, '"outcome":', 1, true) then return 0 end
            end
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[5])
            return 1
            """;

    private static final String INDEX_SHA = sha1(INDEX_SCRIPT);
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
     * Claims a client-chosen requestId for this purchase before its command is sent (SET NX GET: one round trip,
     * atomic; the value is the purchase itself), so that one requestId can never be accepted for two purchases, by two
     * instances or two connections at once: the second learns at once that the id stands for another purchase (another
     * buyer's, or the same buyer's of another goods or quantity) instead of a 202 that no outcome of its own follows.
     */
    public CompletableFuture<Claimed> claim(PurchaseStatus.Pending p) {
        return bounded(redis.submit(pipe -> pipe.setGet(
                        keys.purchaseStatus(p.requestId()),
                        p.encode(),
                        SetParams.setParams().nx().px(retentionMs)))
                .thenApply(stored -> {
                    PurchaseStatus previous = PurchaseStatus.parse(stored);
                    Payload held = previous.payload();
                    return new Claimed(
                            previous,
                            held == null
                                    ? null
                                    : held.differingField(new Payload(p.goodsId(), p.userId(), p.quantity())));
                }));
    }

    /**
     * Records an outcome where the store holds nothing for its requestId or the PENDING claim of this very purchase
     * ({@link #INDEX_SCRIPT}). An outcome of another purchase under the same requestId (an upstream
     * producer's, on another goods; the stream's refusal of a reused id) never replaces the one the store holds.
     */
    public CompletableFuture<Indexed> decided(Outcome o) {
        List<String> key = List.of(keys.purchaseStatus(o.requestId()));
        List<String> args = List.of(
                PurchaseStatus.encode(o),
                Long.toString(o.goodsId()),
                Long.toString(o.userId()),
                Integer.toString(o.quantity()),
                Long.toString(retentionMs));
        return redis.submit(pipe -> pipe.evalsha(INDEX_SHA, key, args))
                .exceptionallyCompose(e -> noScript(e)
                        ? redis.submit(pipe -> pipe.eval(INDEX_SCRIPT, key, args)) // caches it for the next ones
                        : CompletableFuture.failedFuture(e))
                .thenApply(r -> r instanceof Long l && l == 1
                        ? Indexed.WRITTEN
                        : r instanceof Long l && l == 0 ? Indexed.ALREADY : Indexed.OTHER_PURCHASE);
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

    /** Redis does not have the script (restarted, or its script cache flushed or evicted). */
    private static boolean noScript(Throwable e) {
        Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        return t instanceof JedisNoScriptException
                || String.valueOf(t.getMessage()).startsWith("NOSCRIPT");
    }

    private static String sha1(String script) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(script.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
