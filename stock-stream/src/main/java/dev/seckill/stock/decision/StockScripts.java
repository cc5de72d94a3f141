package dev.seckill.stock.decision;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.stock.ledger.GoodsFold;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Calls the stock scripts: one EVALSHA per command (EVAL once on NOSCRIPT, which also caches it on that node),
 * every key in KEYS. Connection failures are retried with backoff a bounded number of times; a retry is safe
 * because each script first looks up the stored decision of its command. Then {@link RedisUnavailable}.
 */
public final class StockScripts {
    /** Keys of a goods that has no sale keep their decisions this long. */
    static final long NO_SALE_DECISION_TTL_MS = Duration.ofDays(1).toMillis();
    /** A sale's keys outlive its end by this much (the write-up: longer than the sale, e.g. a day). */
    static final Duration KEY_GRACE_AFTER_END = Duration.ofDays(1);

    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final MeterRegistry metrics;
    private final int maxAttempts;
    private final Duration firstBackoff;
    private final java.util.Map<StockScript, Timer> latency = new java.util.EnumMap<>(StockScript.class);
    private final java.util.Map<String, Counter> results = new java.util.concurrent.ConcurrentHashMap<>();

    public StockScripts(UnifiedJedis redis, RedisKeys keys, MeterRegistry metrics, int maxAttempts, Duration firstBackoff) {
        this.redis = redis;
        this.keys = keys;
        this.metrics = metrics;
        this.maxAttempts = maxAttempts;
        this.firstBackoff = firstBackoff;
        for (StockScript script : StockScript.values()) {
            latency.put(script, Timer.builder("seckill_redis_call").description("Redis Lua call latency")
                    .tag("script", script.metricName()).publishPercentileHistogram().register(metrics));
        }
    }

    public LuaResult purchase(Purchase p, String position) {
        return call(StockScript.PURCHASE, p.goodsId(), List.of(p.requestId(), Long.toString(p.userId()),
                Integer.toString(p.quantity()), Long.toString(p.acceptedAt().toEpochMilli()), position, "",
                Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    /** A purchase with out-of-range fields: stored and answered REJECTED invalid, deduplicated like any other. */
    public LuaResult invalidPurchase(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt,
                                     String position) {
        return call(StockScript.PURCHASE, goodsId, List.of(requestId, Long.toString(userId), Integer.toString(quantity),
                Long.toString(acceptedAt == null ? 0 : acceptedAt.toEpochMilli()), position, "invalid",
                Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    public LuaResult release(Release r, String position) {
        return call(StockScript.RELEASE, r.goodsId(), List.of(r.opId(), Long.toString(r.userId()),
                r.requestId() == null ? "" : r.requestId(), position));
    }

    public LuaResult openSale(OpenSale o, String position) {
        long expireAt = o.endAt().plus(KEY_GRACE_AFTER_END).toEpochMilli();
        return call(StockScript.OPEN_SALE, o.goodsId(), List.of(o.opId(), Long.toString(o.stock()),
                Long.toString(o.startAt().toEpochMilli()), Long.toString(o.endAt().toEpochMilli()),
                Integer.toString(o.perUserLimit()), o.force() ? "1" : "0", Long.toString(expireAt), position));
    }

    public LuaResult closeSale(CloseSale c, String position) {
        return call(StockScript.CLOSE_SALE, c.goodsId(), List.of(c.opId(), position));
    }

    public LuaResult restore(Restore r, GoodsFold fold, String position) {
        List<String> args = new java.util.ArrayList<>(List.of(r.opId(), position, Long.toString(fold.startAt),
                Long.toString(fold.endAt), Integer.toString(fold.perUserLimit), fold.status, Long.toString(fold.stock),
                Long.toString(fold.opened), Long.toString(Instant.ofEpochMilli(fold.endAt).plus(KEY_GRACE_AFTER_END).toEpochMilli())));
        fold.buyers.forEach((user, h) -> args.addAll(List.of(Long.toString(user), Long.toString(h.quantity()), h.requestId(),
                Long.toString(h.stockAfter()))));
        return call(StockScript.RESTORE, r.goodsId(), args);
    }

    private LuaResult call(StockScript script, long goodsId, List<String> args) {
        List<String> k = keys.goodsKeys(goodsId);
        Duration backoff = firstBackoff;
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            try {
                LuaResult result = LuaResult.from(evalsha(script, k, args));
                latency.get(script).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                results.computeIfAbsent(script.metricName() + "/" + result.code() + "/" + result.status(), id ->
                        Counter.builder("seckill_lua_results").description("Lua results by script, result and status")
                                .tag("script", script.metricName()).tag("result", result.code())
                                .tag("status", result.status().name()).register(metrics)).increment();
                return result;
            } catch (JedisDataException e) {
                throw e; // a script error is a bug, not an outage: retrying cannot help
            } catch (JedisException e) {
                metrics.counter("seckill_redis_errors", "script", script.metricName()).increment();
                if (attempt >= maxAttempts) {
                    throw new RedisUnavailable("Redis did not answer " + script.metricName() + " after " + attempt
                            + " attempts: " + e.getMessage(), e);
                }
                sleep(backoff);
                backoff = backoff.multipliedBy(2).compareTo(Duration.ofSeconds(2)) > 0 ? Duration.ofSeconds(2) : backoff.multipliedBy(2);
            }
        }
    }

    private Object evalsha(StockScript script, List<String> k, List<String> args) {
        try {
            return redis.evalsha(script.sha1(), k, args);
        } catch (JedisNoScriptException e) {
            return redis.eval(script.source(), k, args);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis()); // backoff between Redis retries
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisUnavailable("interrupted during Redis backoff", e);
        }
    }
}
