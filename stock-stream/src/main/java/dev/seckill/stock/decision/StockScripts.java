package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.stock.ledger.GoodsFold;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;

/**
 * The stock scripts' calls: what each command passes to its script ({@link ScriptCall}s, run by {@link ScriptRunner}:
 * pipelined, retried, loaded on NOSCRIPT). Every call carries the marker the goods' keys must have ({@link KeysAt}).
 * The stream makes the calls through the {@link Decider} (one pipeline per batch); a call made alone and waited for is
 * the tests' (their {@code BlockingScripts}).
 */
public final class StockScripts {
    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final MeterRegistry metrics;
    private final KeyLifetime lifetime;
    private final ScriptRunner runner;
    /** This instance's lease, asked by a task before it rebuilds keys from its fold; none until one is given. */
    private volatile OwnLease ownLease = OwnLease.NONE;

    /** Scripts whose keys live by the standard lifetime rule ({@link KeyLifetime#standard()}). */
    public StockScripts(
            UnifiedJedis redis, RedisKeys keys, MeterRegistry metrics, int maxAttempts, Duration firstBackoff) {
        this(redis, keys, metrics, maxAttempts, firstBackoff, KeyLifetime.standard());
    }

    /**
     * Scripts whose sale keys live by {@code lifetime} ({@link KeyLifetime}: from the later of the sale's end and their
     * writing); a call is tried {@code maxAttempts} times, backing off from {@code firstBackoff}.
     */
    public StockScripts(
            UnifiedJedis redis,
            RedisKeys keys,
            MeterRegistry metrics,
            int maxAttempts,
            Duration firstBackoff,
            KeyLifetime lifetime) {
        this.lifetime = lifetime;
        this.redis = redis;
        this.keys = keys;
        this.metrics = metrics;
        this.runner = new ScriptRunner(redis, keys, metrics, maxAttempts, firstBackoff);
    }

    ScriptCall purchaseCall(Purchase p, KeysAt at) {
        return new ScriptCall(
                StockScript.PURCHASE,
                p.goodsId(),
                List.of(
                        at.expected(),
                        at.next(),
                        p.requestId(),
                        Long.toString(p.userId()),
                        Integer.toString(p.quantity()),
                        Long.toString(p.acceptedAt().toEpochMilli()),
                        ""));
    }

    /** A purchase with out-of-range fields: answered REJECTED invalid (stored and deduplicated by the stream). */
    ScriptCall invalidPurchaseCall(
            String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, KeysAt at) {
        return new ScriptCall(
                StockScript.PURCHASE,
                goodsId,
                List.of(
                        at.expected(),
                        at.next(),
                        requestId,
                        Long.toString(userId),
                        Integer.toString(quantity),
                        Long.toString(acceptedAt == null ? 0 : acceptedAt.toEpochMilli()),
                        "invalid"));
    }

    ScriptCall releaseCall(Release r, KeysAt at) {
        return new ScriptCall(
                StockScript.RELEASE,
                r.goodsId(),
                List.of(
                        at.expected(),
                        at.next(),
                        Long.toString(r.userId()),
                        r.requestId() == null ? "" : r.requestId()));
    }

    ScriptCall payCall(Pay p, KeysAt at) {
        return new ScriptCall(
                StockScript.PAY,
                p.goodsId(),
                List.of(at.expected(), at.next(), p.opId(), Long.toString(p.userId()), p.requestId()));
    }

    /** Takes units out of a bucket for a borrow wanting {@code want} ({@code in}: false), or adds {@code units} (true). */
    ScriptCall transferCall(long goodsId, boolean in, long units, KeysAt at) {
        return new ScriptCall(
                StockScript.TRANSFER,
                goodsId,
                List.of(at.expected(), at.next(), in ? "in" : "out", Long.toString(units)));
    }

    /** Takes exactly {@code units} from a bucket's keys, or nothing when it holds fewer (a drawn winner's, at home). */
    ScriptCall takeCall(long goodsId, long units, KeysAt at) {
        return new ScriptCall(
                StockScript.TRANSFER, goodsId, List.of(at.expected(), at.next(), "take", Long.toString(units)));
    }

    /** The lease the tasks' rebuilds ask after from now on (set before the tasks start). */
    public void ownLease(OwnLease lease) {
        this.ownLease = lease;
    }

    OwnLease ownLease() {
        return ownLease;
    }

    /** The lifetime rule this instance writes keys with. */
    public KeyLifetime lifetime() {
        return lifetime;
    }

    /** @param expireAt when every key of the sale expires (epoch ms), from {@link KeyLifetime#expireAt(long)} */
    ScriptCall openSaleCall(OpenSale o, KeysAt at, long expireAt) {
        return new ScriptCall(
                StockScript.OPEN_SALE,
                o.goodsId(),
                List.of(
                        at.expected(),
                        at.next(),
                        Long.toString(o.stock()),
                        Long.toString(o.startAt().toEpochMilli()),
                        Long.toString(o.endAt().toEpochMilli()),
                        Integer.toString(o.perUserLimit()),
                        o.force() ? "1" : "0",
                        Long.toString(expireAt)));
    }

    ScriptCall closeSaleCall(CloseSale c, KeysAt at) {
        return new ScriptCall(StockScript.CLOSE_SALE, c.goodsId(), List.of(at.expected(), at.next()));
    }

    /**
     * Makes a goods' keys what the fold says, carrying {@code marker} ("": no live sale, every key deleted); the keys
     * expire at {@code expireAt} (epoch ms).
     */
    public LuaResult restore(
            long goodsId, String marker, GoodsFold fold, Map<Long, GoodsFold.Holding> holdings, long expireAt) {
        return restore(goodsId, fold != null && fold.bucketed() ? fold.bucket : 0, marker, fold, holdings, expireAt);
    }

    /** As above, on the keys of {@code bucket} (a bucketed goods' in this partition). */
    public LuaResult restore(
            long goodsId,
            int bucket,
            String marker,
            GoodsFold fold,
            Map<Long, GoodsFold.Holding> holdings,
            long expireAt) {
        if (marker.isEmpty())
            return call(new ScriptCall(
                    StockScript.RESTORE, goodsId, bucket, List.of("", "0", "0", "1", "open", "0", "0", "0")));
        List<String> args = new ArrayList<>(List.of(
                marker,
                Long.toString(fold.startAt),
                Long.toString(fold.endAt),
                Integer.toString(fold.perUserLimit),
                fold.status,
                Long.toString(fold.stock),
                Long.toString(fold.opened),
                Long.toString(expireAt)));
        holdings.forEach((user, h) -> args.addAll(
                List.of(Long.toString(user), Long.toString(h.quantity()), h.requestId(), h.paid() ? "1" : "0")));
        return call(new ScriptCall(StockScript.RESTORE, goodsId, bucket, args));
    }

    /**
     * Counts a goods' keys rebuilt from the fold by stock-stream itself ({@link Rebuilds}); {@code cause}: {@code lost}
     * (Redis had less than the fold: a restart, a stale replica or snapshot), {@code ahead} (writes the fold does not
     * have: a crash replay, a retried pipeline), {@code gone} (keys the fold says have expired).
     */
    void countRebuild(String cause) {
        metrics.counter("seckill_stream_inline_restores", "cause", cause).increment();
    }

    /** The marker the goods' sale hash carries now ("" when it has none): a plain read, for {@link Rebuilds#verify}. */
    String marker(long goodsId, int bucket) {
        String at = redis.hget(keys.goodsKeys(goodsId, bucket).get(0), "at");
        return at == null ? "" : at;
    }

    /** One script, one round trip. */
    public LuaResult call(ScriptCall c) {
        return callAll(List.of(c)).get(0);
    }

    /**
     * Runs the calls in order on one pipeline (one round trip for the lot); retries and script loading as
     * {@link ScriptRunner#callAll} says. The time they waited for Redis — retries and their pauses too — counts to this
     * thread's {@link RedisWaits}.
     */
    public List<LuaResult> callAll(List<ScriptCall> calls) {
        long start = System.nanoTime();
        try {
            return runner.callAll(calls);
        } finally {
            RedisWaits.add(System.nanoTime() - start);
        }
    }

    /**
     * As {@link #callAll(List)}, with the round trip made on another thread while the caller runs {@code whileWaiting}
     * (the stream forwards the previous batch's outputs while Redis decides this one): {@link OverlappedRoundTrip}. The
     * round trip's own time counts to the calling thread's {@link RedisWaits}.
     */
    public List<LuaResult> callAll(List<ScriptCall> calls, Runnable whileWaiting) {
        if (calls.isEmpty()) {
            whileWaiting.run();
            return List.of();
        }
        long[] waited = new long[1];
        List<LuaResult> results = OverlappedRoundTrip.run(
                () -> {
                    long start = System.nanoTime();
                    try {
                        return runner.callAll(calls);
                    } finally {
                        waited[0] = System.nanoTime() - start;
                    }
                },
                whileWaiting);
        RedisWaits.add(waited[0]);
        return results;
    }
}
