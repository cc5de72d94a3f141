package dev.seckill.infra.bench.strategies;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/** The synchronous design's two Lua scripts ({@code strategies/*.lua}), run by SHA with a reload when Redis lost them. */
final class SyncScripts {
    static final long BOUGHT = 1;
    static final long SOLD_OUT = -1;
    static final long ALREADY_BOUGHT = -2;

    private final UnifiedJedis redis;
    private final SyncKeys keys;
    private final String deduct = source("sync-deduct.lua");
    private final String rollback = source("sync-rollback.lua");
    private final String deductSha;
    private final String rollbackSha;

    SyncScripts(UnifiedJedis redis, SyncKeys keys) {
        this.redis = redis;
        this.keys = keys;
        this.deductSha = redis.scriptLoad(deduct);
        this.rollbackSha = redis.scriptLoad(rollback);
    }

    /** {@link #BOUGHT}, {@link #SOLD_OUT} or {@link #ALREADY_BOUGHT}. */
    long deduct(long goodsId, long userId) {
        return run(deductSha, deduct, goodsId, userId);
    }

    /** 1 when the buyer's unit came back, 0 when there was nothing of theirs to give back. */
    long rollback(long goodsId, long userId) {
        return run(rollbackSha, rollback, goodsId, userId);
    }

    private long run(String sha, String script, long goodsId, long userId) {
        List<String> k = keys.deductKeys(goodsId);
        List<String> args = List.of(Long.toString(userId), "1");
        try {
            return (Long) redis.evalsha(sha, k, args);
        } catch (JedisNoScriptException flushed) {
            return (Long) redis.eval(script, k, args);
        }
    }

    static String source(String name) {
        try (InputStream in = SyncScripts.class.getResourceAsStream("/strategies/" + name)) {
            if (in == null) throw new IllegalStateException("missing resource strategies/" + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
