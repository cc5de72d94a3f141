package dev.seckill.stock.decision;

import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
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
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
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
    /** The decisions hash's namespace of purchases (operations are under {@code op:}), as the scripts write it. */
    static final String PURCHASE_DECISION = "req:";
    /** The decisions hash's namespace of paid marks ({@code pay.lua}), as the scripts write it. */
    static final String PAID_MARK = "paid:";
    /** Keys of a goods that has no sale keep their decisions this long. */
    static final long NO_SALE_DECISION_TTL_MS = Duration.ofDays(1).toMillis();

    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final MeterRegistry metrics;
    private final int maxAttempts;
    private final Duration firstBackoff;
    private final KeyLifetime lifetime;
    private final java.util.Map<StockScript, Timer> latency = new java.util.EnumMap<>(StockScript.class);
    private final java.util.Set<Long> scriptsLoaded = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.Map<String, Counter> resultCounters = new java.util.concurrent.ConcurrentHashMap<>();

    public StockScripts(UnifiedJedis redis, RedisKeys keys, MeterRegistry metrics, int maxAttempts, Duration firstBackoff) {
        this(redis, keys, metrics, maxAttempts, firstBackoff, KeyLifetime.standard());
    }

    /** @param lifetime how long a sale's keys live ({@link KeyLifetime}: from the later of its end and their writing) */
    public StockScripts(UnifiedJedis redis, RedisKeys keys, MeterRegistry metrics, int maxAttempts, Duration firstBackoff,
                        KeyLifetime lifetime) {
        this.lifetime = lifetime;
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

    public LuaResult purchase(Purchase p, String position) { return call(purchaseCall(p, position)); }

    ScriptCall purchaseCall(Purchase p, String position) {
        return new ScriptCall(StockScript.PURCHASE, p.goodsId(), List.of(p.requestId(), Long.toString(p.userId()),
                Integer.toString(p.quantity()), Long.toString(p.acceptedAt().toEpochMilli()), position, "",
                Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    /** A purchase with out-of-range fields: stored and answered REJECTED invalid, deduplicated like any other. */
    public LuaResult invalidPurchase(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt,
                                     String position) {
        return call(invalidPurchaseCall(requestId, goodsId, userId, quantity, acceptedAt, position));
    }

    ScriptCall invalidPurchaseCall(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, String position) {
        return new ScriptCall(StockScript.PURCHASE, goodsId, List.of(requestId, Long.toString(userId), Integer.toString(quantity),
                Long.toString(acceptedAt == null ? 0 : acceptedAt.toEpochMilli()), position, "invalid",
                Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    public LuaResult release(Release r, String position) { return call(releaseCall(r, position)); }

    ScriptCall releaseCall(Release r, String position) {
        return new ScriptCall(StockScript.RELEASE, r.goodsId(), List.of(r.opId(), Long.toString(r.userId()),
                r.requestId() == null ? "" : r.requestId(), position, Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    public LuaResult pay(Pay p, String position) { return call(payCall(p, position)); }

    ScriptCall payCall(Pay p, String position) {
        return new ScriptCall(StockScript.PAY, p.goodsId(), List.of(p.opId(), Long.toString(p.userId()), p.requestId(), position,
                Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    /** The lifetime rule this instance writes keys with. */
    public KeyLifetime lifetime() { return lifetime; }

    /** Opens a sale whose keys expire by the {@link #lifetime()} rule, counted from now. */
    public LuaResult openSale(OpenSale o, String position) {
        return call(openSaleCall(o, position, lifetime.expireAt(o.endAt().toEpochMilli())));
    }

    /** @param expireAt when every key of the sale expires (epoch ms), from {@link KeyLifetime#expireAt(long)} */
    ScriptCall openSaleCall(OpenSale o, String position, long expireAt) {
        return new ScriptCall(StockScript.OPEN_SALE, o.goodsId(), List.of(o.opId(), Long.toString(o.stock()),
                Long.toString(o.startAt().toEpochMilli()), Long.toString(o.endAt().toEpochMilli()),
                Integer.toString(o.perUserLimit()), o.force() ? "1" : "0", Long.toString(expireAt), position));
    }

    public LuaResult closeSale(CloseSale c, String position) { return call(closeSaleCall(c, position)); }

    ScriptCall closeSaleCall(CloseSale c, String position) {
        return new ScriptCall(StockScript.CLOSE_SALE, c.goodsId(), List.of(c.opId(), position, Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    /** Rebuilds a goods from its fold; the keys expire at {@code expireAt} (epoch ms). */
    public LuaResult restore(Restore r, GoodsFold fold, java.util.Map<Long, GoodsFold.Holding> holdings, String position, long expireAt) {
        List<String> args = new java.util.ArrayList<>(List.of(r.opId(), position, Long.toString(fold.startAt),
                Long.toString(fold.endAt), Integer.toString(fold.perUserLimit), fold.status, Long.toString(fold.stock),
                Long.toString(fold.opened), Long.toString(expireAt)));
        holdings.forEach((user, h) -> args.addAll(List.of(Long.toString(user), Long.toString(h.quantity()), h.requestId(),
                Long.toString(h.stockAfter()), h.paid() ? "1" : "0")));
        return call(new ScriptCall(StockScript.RESTORE, r.goodsId(), args));
    }

    /**
     * Reads a goods' sale for the {@link SoldOutGate}: a few plain reads (HSCAN for the decisions, so a big hash
     * never blocks Redis). Null when the goods has no sale or Redis cannot be read now: the gate then stays unarmed
     * and Lua decides, so a failure here costs speed, never correctness.
     */
    public SaleSnapshot snapshot(long goodsId, int partition) {
        try {
            List<String> sale = redis.hmget(keys.sale(goodsId), "startAt", "endAt", "perUserLimit", "status");
            if (sale.get(0) == null || sale.get(1) == null || sale.get(2) == null) return null;
            String stock = redis.get(keys.stock(goodsId));
            java.util.Set<Long> buyers = new java.util.HashSet<>();
            for (String user : redis.hkeys(keys.buyers(goodsId))) buyers.add(Long.parseLong(user));
            java.util.Set<String> decided = new java.util.HashSet<>();
            long lastOffset = -1;
            String cursor = ScanParams.SCAN_POINTER_START;
            ScanParams page = new ScanParams().count(1000);
            do {
                ScanResult<java.util.Map.Entry<String, String>> scan = redis.hscan(keys.decisions(goodsId), cursor, page);
                for (java.util.Map.Entry<String, String> e : scan.getResult()) {
                    if (e.getKey().startsWith(PAID_MARK)) continue; // a mark, not a decision
                    if (e.getKey().startsWith(PURCHASE_DECISION)) decided.add(e.getKey().substring(PURCHASE_DECISION.length()));
                    lastOffset = Math.max(lastOffset, StoredDecision.parse(e.getValue()).offsetIn(partition));
                }
                cursor = scan.getCursor();
            } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
            metrics.counter("seckill_soldout_gate_snapshots").increment();
            return new SaleSnapshot(Long.parseLong(sale.get(0)), Long.parseLong(sale.get(1)), Integer.parseInt(sale.get(2)),
                    "closed".equals(sale.get(3)), stock == null ? 0 : Long.parseLong(stock), buyers, decided, lastOffset);
        } catch (RuntimeException e) { // Redis refused or an entry did not parse: the gate stays unarmed
            metrics.counter("seckill_soldout_gate_snapshot_errors").increment();
            return null;
        }
    }

    /** One script, one round trip. */
    public LuaResult call(ScriptCall c) { return callAll(List.of(c)).get(0); }

    /**
     * Runs the calls in order on one pipeline (one round trip for the lot; Redis runs them in order, so the decisions
     * are exactly those of calling them one by one). A lost connection retries the whole batch: each script first looks
     * up its stored decision at its own position, so calls that did run answer REPLAY with the same result. A NOSCRIPT
     * (Redis restarted or flushed its script cache) loads the scripts and reruns from the first failed call.
     */
    public List<LuaResult> callAll(List<ScriptCall> calls) {
        if (calls.isEmpty()) return List.of();
        Duration backoff = firstBackoff;
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            try {
                List<LuaResult> results = calls.size() == 1 ? List.of(LuaResult.from(evalsha(calls.get(0))))
                        : pipelined(calls);
                long perCall = (System.nanoTime() - start) / calls.size();
                for (int i = 0; i < calls.size(); i++) {
                    ScriptCall c = calls.get(i);
                    LuaResult r = results.get(i);
                    latency.get(c.script()).record(perCall, TimeUnit.NANOSECONDS);
                    resultCounters.computeIfAbsent(c.script().metricName() + "/" + r.code() + "/" + r.status(), id ->
                            Counter.builder("seckill_lua_results").description("Lua results by script, result and status")
                                    .tag("script", c.script().metricName()).tag("result", r.code())
                                    .tag("status", r.status().name()).register(metrics)).increment();
                }
                if (calls.size() > 1) metrics.summary("seckill_redis_pipeline_size").record(calls.size());
                return results;
            } catch (JedisException e) {
                // a script error is a bug, not an outage: retrying cannot help; a server that is loading its data,
                // failing over or busy refused the calls before any ran, and every call is idempotent by its id
                if (e instanceof JedisDataException d && !transientRefusal(d)) throw e;
                metrics.counter("seckill_redis_errors").increment();
                if (attempt >= maxAttempts) {
                    throw new RedisUnavailable("Redis did not take a batch of " + calls.size() + " calls after " + attempt
                            + " attempts: " + e.getMessage(), e);
                }
                sleep(backoff);
                backoff = backoff.multipliedBy(2).compareTo(Duration.ofSeconds(2)) > 0 ? Duration.ofSeconds(2) : backoff.multipliedBy(2);
            }
        }
    }

    private static final List<String> TRANSIENT_REFUSALS = List.of("LOADING", "BUSY", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN", "READONLY",
            "OOM", "MISCONF");

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
        boolean cluster = redis instanceof redis.clients.jedis.RedisClusterClient;
        for (ScriptCall c : calls) {
            long scope = cluster ? c.goodsId() : 0;
            if (scriptsLoaded.contains(scope)) continue;
            for (StockScript script : StockScript.values()) redis.scriptLoad(script.source(), keys.stock(c.goodsId()));
            if (scriptsLoaded.size() > 100_000) scriptsLoaded.clear();
            scriptsLoaded.add(scope);
        }
    }

    private List<LuaResult> pipelined(List<ScriptCall> calls) {
        ensureLoaded(calls);
        List<LuaResult> out = new java.util.ArrayList<>(calls.size());
        int from = 0;
        while (from < calls.size()) {
            List<Response<Object>> responses = new java.util.ArrayList<>();
            try (AbstractPipeline pipe = redis.pipelined()) {
                for (int i = from; i < calls.size(); i++) {
                    ScriptCall c = calls.get(i);
                    responses.add(pipe.evalsha(c.script().sha1(), keys.goodsKeys(c.goodsId()), c.args()));
                }
                pipe.sync();
            }
            int failedAt = -1;
            for (int i = 0; i < responses.size(); i++) {
                try {
                    out.add(LuaResult.from(responses.get(i).get()));
                } catch (JedisDataException e) {
                    if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) throw e;
                    failedAt = from + i;
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

    private Object evalsha(ScriptCall c) {
        List<String> k = keys.goodsKeys(c.goodsId());
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
