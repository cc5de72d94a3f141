package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.stack.RedisServer;
import dev.seckill.stock.ledger.FoldStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A Redis that answers but cannot serve yet (loading its append-only file after a restart, blocked by a long script,
 * over its maxmemory) refuses every call with an error reply. That is an outage, not a bug: the calls are retried, and a script
 * error still is not. Its own redis-server on a spare port, so the machine's shared one is never blocked.
 */
class RedisRefusalTest {
    static final String BUSY_FOR_TWO_SECONDS = "local t = redis.call('TIME') local from = t[1] * 1000000 + t[2] "
            + "repeat local n = redis.call('TIME') until n[1] * 1000000 + n[2] - from > 2000000 return 1";
    RedisServer server;
    RedisClient client;

    @BeforeEach
    void start() {
        server = RedisServer.onFreePort().start();
        client = RedisClient.create("127.0.0.1", server.port());
        client.configSet("busy-reply-threshold", "50");
    }

    @AfterEach
    void stop() {
        client.close();
        server.stop();
    }

    @Test
    void givenRedisBusyWithALongScript_whenASaleOpens_thenTheCallIsRetriedUntilRedisServesAgain() {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        StockScripts scripts = new StockScripts(client, new RedisKeys("busy:"), metrics, 12, Duration.ofMillis(50));
        BlockingScripts.openSale(
                scripts,
                new OpenSale(1, 5, Instant.now(), Instant.now().plusSeconds(60), 1, "warm", false),
                new KeysAt("", "0"));
        CompletableFuture<Object> busy;
        try (RedisClient other = clientThatWaitsOutTheScript()) {
            busy = CompletableFuture.supplyAsync(() -> other.eval(BUSY_FOR_TWO_SECONDS));
            try (RedisClient probe = RedisClient.create("127.0.0.1", server.port())) {
                await().atMost(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(5))
                        .until(() -> refusesWithBusy(probe));
            }
            LuaResult opened = BlockingScripts.openSale(
                    scripts,
                    new OpenSale(2, 5, Instant.now(), Instant.now().plusSeconds(60), 1, "during", false),
                    new KeysAt("", "1"));

            assertThat(opened.code()).isEqualTo("OPENED");
            assertThat(metrics.get("seckill_redis_errors").counter().count())
                    .as("refused at least once, then retried")
                    .isPositive();
            assertThat(busy.join()).isEqualTo(1L);
        }
    }

    @Test
    void givenRedisBusyForLongerThanTheRetries_thenTheCallFailsAsAnOutageNotAsADecision() {
        StockScripts scripts =
                new StockScripts(client, new RedisKeys("busy:"), new SimpleMeterRegistry(), 2, Duration.ofMillis(10));
        try (RedisClient other = clientThatWaitsOutTheScript();
                RedisClient probe = RedisClient.create("127.0.0.1", server.port())) {
            CompletableFuture<Object> busy = CompletableFuture.supplyAsync(() -> other.eval(BUSY_FOR_TWO_SECONDS));
            await().atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> refusesWithBusy(probe));

            assertThatThrownBy(() -> BlockingScripts.openSale(
                            scripts,
                            new OpenSale(3, 5, Instant.now(), Instant.now().plusSeconds(60), 1, "x", false),
                            new KeysAt("", "2")))
                    .isInstanceOf(RedisUnavailable.class)
                    .hasMessageContaining("BUSY");
            busy.join();
        }
    }

    @Test
    void givenRedisBusy_whenTheDeciderSendsABatch_thenThePipelineIsRetriedAndEachCommandIsDecidedOnce() {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        RedisKeys keys = new RedisKeys("busy:");
        StockScripts scripts = new StockScripts(client, keys, metrics, 12, Duration.ofMillis(50));
        FoldStore folds = FoldStore.inMemory();
        Decider decider = new Decider(scripts, Clock.systemUTC(), folds);
        Instant now = Instant.now();
        List<Decision> warm = decider.decideAll(List.of(
                input(0, new OpenSale(4, 5, now.minusSeconds(1), now.plusSeconds(60), 1, "open", false)),
                input(1, new Purchase("r1", 4, 1, 1, now)))); // one pipeline: the scripts are loaded
        assertThat(warm.get(1).outcome().outcome()).isEqualTo(OutcomeKind.SUCCESS);
        try (RedisClient other = clientThatWaitsOutTheScript();
                RedisClient probe = RedisClient.create("127.0.0.1", server.port())) {
            CompletableFuture<Object> busy = CompletableFuture.supplyAsync(() -> other.eval(BUSY_FOR_TWO_SECONDS));
            await().atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> refusesWithBusy(probe));

            List<Decision> decided = decider.decideAll(List.of(
                    input(2, new Purchase("r2", 4, 2, 1, now)),
                    input(3, new Purchase("r3", 4, 3, 1, now)),
                    input(4, new Release(4, 1, 1, null, "r1", "cancelled", "rel-1"))));

            assertThat(metrics.get("seckill_redis_errors").counter().count())
                    .as("refused at least once, then retried")
                    .isPositive();
            assertThat(decided.subList(0, 2))
                    .extracting(x -> x.outcome().outcome())
                    .containsOnly(OutcomeKind.SUCCESS);
            assertThat(decided.get(2).ledger().type()).isEqualTo(LedgerType.RELEASED);
            assertThat(client.get(keys.stock(4))).as("each once").isEqualTo("3");
            assertThat(folds.get(4).stock).isEqualTo(3);
            assertThat(client.hget(keys.sale(4), "at")).isEqualTo("4");
            assertThat(busy.join()).isEqualTo(1L);
        }
    }

    @Test
    void givenRedisOutOfMemory_thenAPurchaseIsRetried_thenFailsAsAnOutage_andWritesNothing() {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        RedisKeys keys = new RedisKeys("oom:");
        StockScripts scripts = new StockScripts(client, keys, metrics, 3, Duration.ofMillis(10));
        Instant now = Instant.now();
        BlockingScripts.openSale(
                scripts,
                new OpenSale(5, 5, now.minusSeconds(1), now.plusSeconds(60), 1, "open", false),
                new KeysAt("", "0"));
        Purchase p = new Purchase("r1", 5, 1, 1, now);
        client.configSet("maxmemory", "1"); // over it: every write that may grow memory is refused with OOM
        try {
            assertThatThrownBy(() -> BlockingScripts.purchase(scripts, p, new KeysAt("0", "1")))
                    .isInstanceOf(RedisUnavailable.class)
                    .hasMessageContaining("3 attempts")
                    .hasMessageContaining("OOM");
            assertThat(metrics.get("seckill_redis_errors").counter().count()).isEqualTo(3);
            assertThat(client.hget(keys.sale(5), "at"))
                    .as("refused before its first write")
                    .isEqualTo("0");
            assertThat(client.get(keys.stock(5))).isEqualTo("5");
        } finally {
            client.configSet("maxmemory", "0");
        }
        assertThat(BlockingScripts.purchase(scripts, p, new KeysAt("0", "1")).code())
                .isEqualTo("SUCCESS");
    }

    static Decider.Input input(long offset, Command command) {
        return new Decider.Input(Long.toString(command.goodsId()), CommandCodec.encode(command), 0, offset);
    }

    @Test
    void onlyTheRefusalsOfAServerThatCannotServeYetAreRetried() {
        for (String m : List.of(
                "LOADING Redis is loading the dataset in memory",
                "BUSY Redis is busy running a script",
                "TRYAGAIN Multiple keys request during rehashing of slot",
                "CLUSTERDOWN The cluster is down",
                "MASTERDOWN Link with MASTER is down",
                "READONLY You can't write against a read only replica.",
                "OOM command not allowed when used memory > 'maxmemory'.",
                "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.")) {
            assertThat(BlockingScripts.transientRefusal(new JedisDataException(m)))
                    .as(m)
                    .isTrue();
        }
        for (String m : List.of(
                "ERR Error running script (call to f_x): user_script:3: attempt to compare nil with number",
                "WRONGTYPE Operation against a key holding the wrong kind of value",
                "CROSSSLOT Keys in request don't hash to the same slot")) {
            assertThat(BlockingScripts.transientRefusal(new JedisDataException(m)))
                    .as(m)
                    .isFalse();
        }
    }

    /** Runs the 2 s script: Jedis' default 2 s read timeout would race it (CI once lost that race). */
    private RedisClient clientThatWaitsOutTheScript() {
        return RedisClient.builder()
                .hostAndPort("127.0.0.1", server.port())
                .clientConfig(DefaultJedisClientConfig.builder()
                        .socketTimeoutMillis(15_000)
                        .build())
                .build();
    }

    private static boolean refusesWithBusy(RedisClient probe) {
        try {
            probe.ping();
            return false;
        } catch (JedisDataException e) {
            return e.getMessage() != null && e.getMessage().startsWith("BUSY");
        }
    }
}
