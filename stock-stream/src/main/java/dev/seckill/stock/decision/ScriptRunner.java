package dev.seckill.stock.decision;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.retry.Backoff;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Runs stock script calls: one EVALSHA per command (EVAL once on NOSCRIPT, which also caches it on that node), every
 * key in KEYS, a batch on one pipeline. Connection failures are retried with backoff a bounded number of times; a retry
 * is safe because each script first checks the goods' marker: a call that did run has moved it, so the rerun answers
 * STALE and the {@link Decider} rebuilds the goods from the fold and decides again. Then {@link RedisUnavailable}.
 * Records the Lua result counts and the Redis call latency: each call the time it waited for its answer, which for a
 * call of a pipelined batch is the batch's whole round trip.
 */
final class ScriptRunner {
    /** Purchases decided by one call of the batch script at most (a script blocks Redis while it runs). */
    static final int MAX_BATCH = 64;

    private static final List<String> TRANSIENT_REFUSALS =
            List.of("LOADING", "BUSY", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN", "READONLY", "OOM", "MISCONF");
    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final MeterRegistry metrics;
    private final int maxAttempts;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(2);
    private final Duration firstBackoff;
    private final Map<StockScript, Timer> latency = new EnumMap<>(StockScript.class);

    private final Set<Long> scriptsLoaded = ConcurrentHashMap.newKeySet();
    private final Map<String, Counter> resultCounters = new ConcurrentHashMap<>();

    ScriptRunner(UnifiedJedis redis, RedisKeys keys, MeterRegistry metrics, int maxAttempts, Duration firstBackoff) {
        this.redis = redis;
        this.keys = keys;
        this.metrics = metrics;
        this.maxAttempts = maxAttempts;
        this.firstBackoff = firstBackoff;
        // at 0 from the start, so a rate (and its alert) exists before the first error
        metrics.counter("seckill_redis_errors");
        for (StockScript script : StockScript.values()) {
            latency.put(
                    script,
                    Timer.builder("seckill_redis_call")
                            .description("Redis Lua call latency: what the call waited for its answer (a"
                                    + " pipelined call, its batch's round trip)")
                            .tag("script", script.metricName())
                            .publishPercentileHistogram()
                            .register(metrics));
        }
    }

    /**
     * Runs the calls in order on one pipeline (one round trip for the lot; Redis runs them in order, so the decisions
     * are exactly those of calling them one by one). A lost connection retries the whole batch: calls that did run moved
     * their goods' marker, so their reruns answer STALE and the goods is rebuilt from the fold ({@link Rebuilds}). A NOSCRIPT
     * (Redis restarted or flushed its script cache) loads the scripts and reruns from the first failed call.
     */
    List<LuaResult> callAll(List<ScriptCall> calls) {
        if (calls.isEmpty()) return List.of();
        Backoff backoff =
                new Backoff(firstBackoff, firstBackoff.compareTo(MAX_BACKOFF) > 0 ? firstBackoff : MAX_BACKOFF);
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            try {
                List<LuaResult> results =
                        calls.size() == 1 ? List.of(LuaResult.from(evalsha(calls.get(0)))) : pipelined(calls);
                // what each call waited for its answer: the whole round trip of its batch (a share of it would
                // show a 3 s stall of a batch of 250 as 12 ms, under the alert's threshold)
                long waited = System.nanoTime() - start;
                for (int i = 0; i < calls.size(); i++) {
                    ScriptCall c = calls.get(i);
                    LuaResult r = results.get(i);
                    latency.get(c.script()).record(waited, TimeUnit.NANOSECONDS);
                    resultCounters
                            .computeIfAbsent(
                                    c.script().metricName() + "/" + r.code() + "/" + r.status(),
                                    id -> Counter.builder("seckill_lua_results")
                                            .description("Lua results by script, result and status")
                                            .tag("script", c.script().metricName())
                                            .tag("result", r.code())
                                            .tag("status", r.status().name())
                                            .register(metrics))
                            .increment();
                }
                if (calls.size() > 1)
                    metrics.summary("seckill_redis_pipeline_size").record(calls.size());
                return results;
            } catch (JedisException e) {
                // a script error is a bug, not an outage: retrying cannot help; a server that is loading its data,
                // failing over or busy refused the calls before any ran, and every call is idempotent by its id
                if (e instanceof JedisDataException d && !transientRefusal(d)) throw e;
                metrics.counter("seckill_redis_errors").increment();
                if (attempt >= maxAttempts) {
                    throw new RedisUnavailable(
                            "Redis did not take a batch of " + calls.size() + " calls after " + attempt + " attempts: "
                                    + e.getMessage(),
                            e);
                }
                sleep(Duration.ofMillis(backoff.nextMillis()));
            }
        }
    }

    /**
     * Errors Redis gives while it cannot serve yet (restart, failover, a long script) or cannot write now (OOM: over
     * maxmemory; MISCONF: a failing snapshot stops writes): worth the same bounded retries as an outage, then
     * {@link RedisUnavailable}; every script refuses before it writes anything, and each call is idempotent by its id.
     */
    static boolean transientRefusal(JedisDataException e) {
        String m = e.getMessage();
        if (m == null) return false;
        for (String prefix : TRANSIENT_REFUSALS) if (m.startsWith(prefix)) return true;
        return false;
    }

    /**
     * Every script is loaded on the node of every goods in the batch before it is pipelined: a pipeline where one
     * call meets NOSCRIPT while a later call on the same goods runs would change the serial order. (Loaded once per
     * goods; for a standalone Redis, once.)
     */
    private void ensureLoaded(List<ScriptCall> calls) {
        boolean cluster = redis instanceof RedisClusterClient;
        for (ScriptCall c : calls) {
            long scope = cluster ? c.goodsId() * 64 + c.bucket() : 0;
            if (scriptsLoaded.contains(scope)) continue;
            for (StockScript script : StockScript.values())
                redis.scriptLoad(script.source(), keys.stock(c.goodsId(), c.bucket()));
            if (scriptsLoaded.size() > 100_000) scriptsLoaded.clear();
            scriptsLoaded.add(scope);
        }
    }

    /**
     * One pipeline for the lot. A run of purchases of one goods next to each other goes as one call of the batch script
     * ({@link StockScript#PURCHASE_BATCH}: the purchase script run for each in turn, inside one script): the same
     * decisions in the same order, at a fraction of the per-call cost Redis pays for EVALSHA (the hot goods' one node
     * is the ceiling of its sale).
     */
    private List<LuaResult> pipelined(List<ScriptCall> calls) {
        ensureLoaded(calls);
        List<LuaResult> out = new ArrayList<>(calls.size());
        int from = 0;
        while (from < calls.size()) {
            List<int[]> segments = segments(calls, from);
            List<Response<Object>> responses = new ArrayList<>();
            try (AbstractPipeline pipe = redis.pipelined()) {
                for (int[] seg : segments) responses.add(send(pipe, calls, seg[0], seg[1]));
                pipe.sync();
            }
            int failedAt = -1;
            for (int i = 0; i < responses.size(); i++) {
                try {
                    Object reply = responses.get(i).get();
                    if (segments.get(i)[1] - segments.get(i)[0] == 1) out.add(LuaResult.from(reply));
                    else for (Object each : (List<?>) reply) out.add(LuaResult.from(each));
                } catch (JedisDataException e) {
                    if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) throw e;
                    failedAt = segments.get(i)[0];
                    break;
                }
            }
            if (failedAt < 0) return out;
            // the script cache was emptied under us (Redis restarted or SCRIPT FLUSH): load again and go on from there
            metrics.counter("seckill_redis_noscript").increment();
            scriptsLoaded.clear();
            ensureLoaded(calls.subList(failedAt, calls.size()));
            from = failedAt;
        }
        return out;
    }

    /** [start, end) of each call sent: a run of purchases of one goods (at most {@link #MAX_BATCH}), or a single call. */
    static List<int[]> segments(List<ScriptCall> calls, int from) {
        List<int[]> segments = new ArrayList<>();
        int i = from;
        while (i < calls.size()) {
            ScriptCall first = calls.get(i);
            int end = i + 1;
            if (first.script() == StockScript.PURCHASE) {
                while (end < calls.size()
                        && end - i < MAX_BATCH
                        && calls.get(end).script() == StockScript.PURCHASE
                        && calls.get(end).goodsId() == first.goodsId()
                        && calls.get(end).bucket() == first.bucket()) end++;
            }
            segments.add(new int[] {i, end});
            i = end;
        }
        return segments;
    }

    private Response<Object> send(AbstractPipeline pipe, List<ScriptCall> calls, int start, int end) {
        ScriptCall first = calls.get(start);
        List<String> goodsKeys = keys.goodsKeys(first.goodsId(), first.bucket());
        if (end - start == 1) return pipe.evalsha(first.script().sha1(), goodsKeys, first.args());
        List<String> args = new ArrayList<>((end - start) * first.args().size());
        for (int i = start; i < end; i++) args.addAll(calls.get(i).args());
        return pipe.evalsha(StockScript.PURCHASE_BATCH.sha1(), goodsKeys, args);
    }

    private Object evalsha(ScriptCall c) {
        List<String> k = keys.goodsKeys(c.goodsId(), c.bucket());
        try {
            return redis.evalsha(c.script().sha1(), k, c.args());
        } catch (JedisNoScriptException e) {
            return redis.eval(c.script().source(), k, c.args());
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
