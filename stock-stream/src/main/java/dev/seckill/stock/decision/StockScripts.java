package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
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
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The stock scripts' calls: what each command passes to its script ({@link ScriptCall}s, run by {@link ScriptRunner}:
 * pipelined, retried, loaded on NOSCRIPT), and the sale snapshot the {@link SoldOutGate} arms from.
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
    private final KeyLifetime lifetime;
    private final ScriptRunner runner;

    public StockScripts(
            UnifiedJedis redis, RedisKeys keys, MeterRegistry metrics, int maxAttempts, Duration firstBackoff) {
        this(redis, keys, metrics, maxAttempts, firstBackoff, KeyLifetime.standard());
    }

    /** @param lifetime how long a sale's keys live ({@link KeyLifetime}: from the later of its end and their writing) */
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

    public LuaResult purchase(Purchase p, String position) {
        return call(purchaseCall(p, position));
    }

    ScriptCall purchaseCall(Purchase p, String position) {
        return purchaseCall(p, position, false);
    }

    /** @param askIfNoSale a goods with no sale hash answers NOSALE, storing nothing ({@link WipedSales}) */
    ScriptCall purchaseCall(Purchase p, String position, boolean askIfNoSale) {
        return new ScriptCall(
                StockScript.PURCHASE,
                p.goodsId(),
                List.of(
                        p.requestId(),
                        Long.toString(p.userId()),
                        Integer.toString(p.quantity()),
                        Long.toString(p.acceptedAt().toEpochMilli()),
                        position,
                        "",
                        Long.toString(NO_SALE_DECISION_TTL_MS),
                        askIfNoSale ? "1" : "0"));
    }

    /** A purchase with out-of-range fields: stored and answered REJECTED invalid, deduplicated like any other. */
    public LuaResult invalidPurchase(
            String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, String position) {
        return call(invalidPurchaseCall(requestId, goodsId, userId, quantity, acceptedAt, position));
    }

    ScriptCall invalidPurchaseCall(
            String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, String position) {
        return new ScriptCall(
                StockScript.PURCHASE,
                goodsId,
                List.of(
                        requestId,
                        Long.toString(userId),
                        Integer.toString(quantity),
                        Long.toString(acceptedAt == null ? 0 : acceptedAt.toEpochMilli()),
                        position,
                        "invalid",
                        Long.toString(NO_SALE_DECISION_TTL_MS),
                        "0"));
    }

    public LuaResult release(Release r, String position) {
        return call(releaseCall(r, position));
    }

    ScriptCall releaseCall(Release r, String position) {
        return new ScriptCall(
                StockScript.RELEASE,
                r.goodsId(),
                List.of(
                        r.opId(),
                        Long.toString(r.userId()),
                        r.requestId() == null ? "" : r.requestId(),
                        position,
                        Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    public LuaResult pay(Pay p, String position) {
        return call(payCall(p, position));
    }

    ScriptCall payCall(Pay p, String position) {
        return new ScriptCall(
                StockScript.PAY,
                p.goodsId(),
                List.of(
                        p.opId(),
                        Long.toString(p.userId()),
                        p.requestId(),
                        position,
                        Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    /** The lifetime rule this instance writes keys with. */
    public KeyLifetime lifetime() {
        return lifetime;
    }

    /** Opens a sale whose keys expire by the {@link #lifetime()} rule, counted from now. */
    public LuaResult openSale(OpenSale o, String position) {
        return call(openSaleCall(o, position, lifetime.expireAt(o.endAt().toEpochMilli())));
    }

    /** @param expireAt when every key of the sale expires (epoch ms), from {@link KeyLifetime#expireAt(long)} */
    ScriptCall openSaleCall(OpenSale o, String position, long expireAt) {
        return new ScriptCall(
                StockScript.OPEN_SALE,
                o.goodsId(),
                List.of(
                        o.opId(),
                        Long.toString(o.stock()),
                        Long.toString(o.startAt().toEpochMilli()),
                        Long.toString(o.endAt().toEpochMilli()),
                        Integer.toString(o.perUserLimit()),
                        o.force() ? "1" : "0",
                        Long.toString(expireAt),
                        position));
    }

    public LuaResult closeSale(CloseSale c, String position) {
        return call(closeSaleCall(c, position));
    }

    ScriptCall closeSaleCall(CloseSale c, String position) {
        return new ScriptCall(
                StockScript.CLOSE_SALE,
                c.goodsId(),
                List.of(c.opId(), position, Long.toString(NO_SALE_DECISION_TTL_MS)));
    }

    /** Rebuilds a goods from its fold; the keys expire at {@code expireAt} (epoch ms). */
    public LuaResult restore(
            Restore r, GoodsFold fold, Map<Long, GoodsFold.Holding> holdings, String position, long expireAt) {
        List<String> args = new ArrayList<>(List.of(
                r.opId(),
                position,
                Long.toString(fold.startAt),
                Long.toString(fold.endAt),
                Integer.toString(fold.perUserLimit),
                fold.status,
                Long.toString(fold.stock),
                Long.toString(fold.opened),
                Long.toString(expireAt)));
        holdings.forEach((user, h) -> args.addAll(List.of(
                Long.toString(user),
                Long.toString(h.quantity()),
                h.requestId(),
                Long.toString(h.stockAfter()),
                h.paid() ? "1" : "0")));
        return call(new ScriptCall(StockScript.RESTORE, r.goodsId(), args));
    }

    /**
     * Reads a goods' sale for the {@link SoldOutGate}: a few plain reads (HSCAN for the decisions, so a big hash
     * never blocks Redis). Null when the goods has no sale or Redis cannot be read now: the gate then stays unarmed
     * and Lua decides, so a failure here costs speed, never correctness.
     */
    public SaleSnapshot snapshot(long goodsId, int partition) {
        return SaleSnapshots.read(redis, keys, metrics, goodsId, partition);
    }

    /** One script, one round trip. */
    /** Counts a live sale rebuilt in Redis by stock-stream itself ({@link WipedSales}). */
    void countInlineRestore() {
        metrics.counter("seckill_stream_inline_restores").increment();
    }

    public LuaResult call(ScriptCall c) {
        return callAll(List.of(c)).get(0);
    }

    /**
     * Runs the calls in order on one pipeline (one round trip for the lot); retries and script loading as
     * {@link ScriptRunner#callAll} says.
     */
    public List<LuaResult> callAll(List<ScriptCall> calls) {
        return runner.callAll(calls);
    }

    /** Whether Redis refused only for now (loading, busy, failing over, out of memory): see {@link ScriptRunner}. */
    static boolean transientRefusal(JedisDataException e) {
        return ScriptRunner.transientRefusal(e);
    }
}
