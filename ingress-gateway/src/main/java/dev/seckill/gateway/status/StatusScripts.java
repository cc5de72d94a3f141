package dev.seckill.gateway.status;

import dev.seckill.contracts.redis.RedisKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/** The status store's Lua scripts, run through a call queue: EVALSHA, and EVAL once when Redis does not have it. */
enum StatusScripts {
    /**
     * The indexer's write of an outcome, compare-and-set ({@link PurchaseStatusStore.Indexed}): onto an empty entry or onto the PENDING
     * claim of the same purchase (goodsId, userId, quantity), never onto an outcome already there nor onto another
     * purchase's entry. The stored values are read from its JSON as {@link PurchaseStatus} writes it (no spaces, digits;
     * a requestId cannot hold a quote) and compared as strings, so no long loses precision in Lua's numbers.
     */
    INDEX("""
            local held = redis.call('GET', KEYS[1])
            if held then
              if string.match(held, '"goodsId":(%d+)') ~= ARGV[2]
                or string.match(held, '"userId":(%d+)') ~= ARGV[3]
                or string.match(held, '"quantity":(%d+)') ~= ARGV[4] then return -1 end
              if string.find(held, '"outcome":', 1, true) then return 0 end
            end
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[5])
            return 1
            """),

    /**
     * The buyer's list of purchases of one goods ({@link RedisKeys#buyerPurchases}): a claim ({@code PENDING@<ms>}) is
     * added where the requestId is not listed; an outcome replaces nothing but the PENDING its claim left (a
     * re-delivery or a late claim never turns a decided purchase back to PENDING). At most ARGV[4] requestIds per
     * list (a buyer flooding one goods cannot grow it further). The list lives as long as its longest-lived entry: its
     * TTL is only ever extended.
     */
    LIST("""
            local held = redis.call('HGET', KEYS[1], ARGV[1])
            local pending = held and string.sub(held, 1, 7) == 'PENDING'
            if held and (string.sub(ARGV[2], 1, 7) == 'PENDING' or not pending) then return 0 end
            if not held and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
            return 1
            """);

    private final String source;
    private final String sha;

    StatusScripts(String source) {
        this.source = source;
        this.sha = sha1(source);
    }

    String source() {
        return source;
    }

    CompletableFuture<Object> run(RedisBatcher lane, List<String> keys, List<String> args) {
        return lane.submit(pipe -> pipe.evalsha(sha, keys, args))
                .exceptionallyCompose(e -> noScript(e)
                        ? lane.submit(pipe -> pipe.eval(source, keys, args)) // caches it for the next ones
                        : CompletableFuture.failedFuture(e));
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
