package dev.seckill.infra.chaos;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.infra.harness.Sales;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.stack.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis restarted from a snapshot older than its last writes: {@code SAVE} at a seeded moment writes the
 * scenario's Redis's {@code dump.rdb} into its own folder, the sale goes on until the sale's marker (the {@code at}
 * field of its hash: the offset of the last command applied) has moved past the snapshot's, then Redis is stopped
 * without saving ({@code SHUTDOWN NOSAVE}) and started again from that dump: the keys are back as they were, minus the
 * last writes. The stream must notice (the marker behind its fold) and rebuild the keys from the fold before deciding.
 */
final class StaleRedis {
    static final int RESTARTS = 2;

    private StaleRedis() {}

    /**
     * {@value #RESTARTS} restarts from a stale snapshot, 1–3 s apart. Recovery: the restart → the first answer to a
     * request sent after it. Checks: the stream logged a rebuild of the goods after each restart (cause lost), units
     * sold ≤ stock.
     */
    static ChaosScenario.Fault restartFromOldSnapshot() {
        return t -> {
            RedisServer redis = t.servers.redis();
            String sale = new RedisKeys(t.settings.redisPrefix()).sale(t.goods);
            List<String> lost = new ArrayList<>();
            int before = StreamLog.total(StreamLog.rebuilds(t.logs, t.goods));
            for (int k = 0; k < RESTARTS; k++) {
                if (k > 0 && !t.pause(1_000, 3_000)) break;
                String saved;
                String last;
                try (UnifiedJedis jedis = RedisConnections.open(t.settings)) {
                    saved = jedis.hget(sale, "at");
                    String reply = ChaosTarget.redisCli(redis.port(), "SAVE");
                    if (!reply.equals("OK")) throw new IllegalStateException("SAVE answered " + reply);
                    // more sales after the snapshot: at least one command applied since (its marker moved), then a
                    // seeded while longer
                    if (ChaosTarget.await(() -> !Objects.equals(saved, jedis.hget(sale, "at")), 10) < 0) {
                        if (k == 0) throw new IllegalStateException("no command reached Redis in 10 s after SAVE");
                        break; // the sale sold out: nothing more to lose
                    }
                    t.pause(100, 1_500);
                    last = jedis.hget(sale, "at");
                }
                long at = System.nanoTime();
                redis.stop(); // SHUTDOWN NOSAVE: the dump on disk stays the one SAVE wrote
                redis.start(); // loads it
                t.pauseFrom(at);
                String keys = ChaosTarget.redisCli(redis.port(), "DBSIZE");
                if (keys.equals("0")) throw new IllegalStateException("Redis came back empty: the dump was not loaded");
                lost.add(last + " -> " + saved + " (" + keys + " keys loaded)");
            }
            int restarts = lost.size();
            Path dump = redisDump(redis);
            String[] found = {""};
            t.check(
                    () -> "restarts from a stale dump (sale marker before the stop -> in the dump: " + lost + ", "
                            + dump
                            + "): stock-stream rebuilt the goods from its fold after each"
                            + " (its WARN line), units sold <= stock" + found[0],
                    () -> {
                        Map<String, Integer> rebuilt = StreamLog.rebuilds(t.logs, t.goods);
                        int after = StreamLog.total(rebuilt);
                        found[0] = "; rebuilds logged by cause: " + rebuilt;
                        if (after - before < restarts || rebuilt.getOrDefault("lost", 0) < 1)
                            return restarts + " restarts from a stale dump, " + (after - before)
                                    + " rebuilds logged by stock-stream " + rebuilt;
                        try (Connection c = t.db()) {
                            long sold = Sales.liveOrders(c, t.goods);
                            if (sold > t.stock) return sold + " units sold of " + t.stock;
                        }
                        return null;
                    });
        };
    }

    /** Where the scenario's Redis keeps its snapshot (its own folder, the default dbfilename). */
    static Path redisDump(RedisServer redis) {
        String dir = ChaosTarget.redisCli(redis.port(), "CONFIG", "GET", "dir")
                .lines()
                .reduce((a, b) -> b)
                .orElse("");
        Path dump = Path.of(dir, "dump.rdb");
        return Files.exists(dump) ? dump : Path.of(dir);
    }
}
