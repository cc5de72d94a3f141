package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.stack.RedisServer;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * {@code seckill_redis_call_seconds} is what a call waited for its answer. A pipelined batch's calls each
 * waited the batch's whole round trip, so a stalled Redis shows at full length on every one of them (it used to be
 * divided by the batch's size: a 3 s stall of 250 calls read 12 ms, and {@code SeckillRedisSlow} stayed quiet). Its
 * own redis-server on a spare port, which {@code CLIENT PAUSE} stalls: the machine's shared one is never paused.
 */
class RedisCallLatencyTest {
    static final long[] GOODS = {801, 802, 803, 804};
    static final int BUYERS_PER_GOODS = 4;
    static final Duration PAUSE = Duration.ofMillis(600);
    /** Well under the pause (what each call waits), well over a share of it (600 ms / 16 calls = 37.5 ms). */
    static final Duration STALLED = Duration.ofMillis(300);

    RedisServer server;
    RedisClient client;

    @BeforeEach
    void start() {
        server = RedisServer.onFreePort().start();
        client = RedisClient.create("127.0.0.1", server.port());
    }

    @AfterEach
    void stop() {
        client.close();
        server.stop();
    }

    @Test
    void whenRedisStallsABatch_everyCallOfItRecordsTheWholeWait() {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        StockScripts scripts = new StockScripts(client, new RedisKeys("slow:"), metrics, 3, Duration.ofMillis(10));
        Instant now = Instant.now();
        Map<Long, String> markers = new HashMap<>();
        for (long goods : GOODS) {
            OpenSale open =
                    new OpenSale(goods, 100, now.minusSeconds(1), now.plusSeconds(60), 1, "open-" + goods, false);
            assertThat(BlockingScripts.openSale(scripts, open, new KeysAt("", "0"))
                            .code())
                    .isEqualTo("OPENED");
            markers.put(goods, "0");
        }
        List<LuaResult> warm = scripts.callAll(batch(scripts, markers, 1, now)); // loads the scripts, unstalled
        assertThat(warm).extracting(LuaResult::code).containsOnly("SUCCESS");
        Timer purchases =
                metrics.get("seckill_redis_call").tag("script", "purchase").timer();
        long countBefore = purchases.count();
        double totalBeforeMs = purchases.totalTime(TimeUnit.MILLISECONDS);
        List<ScriptCall> stalled = batch(scripts, markers, 2, now);

        List<LuaResult> results;
        try (RedisClient pauser = RedisClient.create("127.0.0.1", server.port())) {
            // every client's next command waits until the pause is over: the batch below waits ~600 ms for its answers
            Object paused =
                    pauser.sendCommand(Protocol.Command.CLIENT, "PAUSE", Long.toString(PAUSE.toMillis()), "ALL");
            assertThat(paused instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : paused)
                    .isEqualTo("OK");
            results = scripts.callAll(stalled);
        }

        assertThat(results).hasSize(stalled.size()).extracting(LuaResult::code).containsOnly("SUCCESS");
        assertThat(purchases.count() - countBefore).as("one record per call").isEqualTo(stalled.size());
        assertThat(purchases.max(TimeUnit.MILLISECONDS))
                .as("the longest a call waited: the stall, not a share of it")
                .isGreaterThanOrEqualTo(STALLED.toMillis());
        assertThat(purchases.totalTime(TimeUnit.MILLISECONDS) - totalBeforeMs)
                .as("every call of the stalled batch waited through the stall")
                .isGreaterThanOrEqualTo((double) stalled.size() * STALLED.toMillis());
    }

    /** One purchase per goods per buyer, the goods interleaved (a pipeline of single calls), markers chained per goods. */
    static List<ScriptCall> batch(StockScripts scripts, Map<Long, String> markers, int round, Instant now) {
        List<ScriptCall> calls = new ArrayList<>();
        for (int b = 0; b < BUYERS_PER_GOODS; b++) {
            for (long goods : GOODS) {
                long user = round * 100L + b;
                String offset = Long.toString(round * 100L + b + 1);
                calls.add(scripts.purchaseCall(
                        new Purchase("r-" + goods + "-" + user, goods, user, 1, now),
                        new KeysAt(markers.get(goods), offset)));
                markers.put(goods, offset);
            }
        }
        return calls;
    }
}
