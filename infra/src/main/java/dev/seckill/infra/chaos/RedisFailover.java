package dev.seckill.infra.chaos;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.infra.harness.Sales;
import dev.seckill.stack.RedisServer;
import java.sql.Connection;
import java.util.Map;

/**
 * A failover to a replica that lagged: the scenario's Redis has a real replica ({@code redis-server --replicaof}) that
 * replicates through a link the scenario can stall (a partition between the two); the services reach Redis through a
 * proxy, the address a failover moves (a virtual IP, a Sentinel-aware proxy). While the sale runs the link is stalled
 * (the replica falls behind), the replica is promoted ({@code REPLICAOF NO ONE}) while the old primary still takes the
 * services' writes (the moments before clients learn of a failover), then the proxy moves to the new primary and the
 * old one is stopped without saving (fenced). Every write after the stall is lost; the stream must notice (the marker
 * behind its fold) and rebuild the keys from its fold.
 *
 * <p>Why a proxy and not the services repointed: each service reads {@code SECKILL_REDIS_URL} once at start, so
 * repointing a running one means restarting it (a scenario of its own: kill-*), and the pipeline's processes are
 * started with one environment for their whole life.
 */
final class RedisFailover {
    static final long STALL_MIN_MS = 300;
    static final long STALL_MAX_MS = 1_000;
    static final long OLD_PRIMARY_MIN_MS = 100;
    static final long OLD_PRIMARY_MAX_MS = 400;

    private RedisFailover() {}

    /**
     * Stall {@value #STALL_MIN_MS}–{@value #STALL_MAX_MS} ms, promote, {@value #OLD_PRIMARY_MIN_MS}–{@value
     * #OLD_PRIMARY_MAX_MS} ms more on the old primary, switch. Recovery: the switch → the first answer to a request sent
     * after it. Checks: the stream logged a rebuild of the goods (cause lost), units sold ≤ stock.
     *
     * <p>The waits are short on purpose: the fault starts once a quarter to a half of the stock is sold, and the rest
     * sells in a few seconds, after which the load's remaining buyers are answered SOLD_OUT at the door within seconds.
     * With the earlier 1–3 s + 0.2–1 s (and a redis-cli process for each step on a busy machine) the switch could land
     * after the sale sold out or after the buyers' load had ended ("recovered in never"), testing nothing of theirs. A few
     * hundred milliseconds of the sale's writes are enough for the replica to lag (the check requires it did).
     */
    static ChaosScenario.Fault promoteLaggingReplica() {
        return t -> {
            ChaosServers.Failover f = t.servers.failover();
            RedisServer primary = t.servers.redis();
            RedisServer replica = f.replica();
            String sale = new RedisKeys(t.settings.redisPrefix()).sale(t.goods);
            int before = StreamLog.total(StreamLog.rebuilds(t.logs, t.goods));
            f.link().stall(true); // the partition: from here the replica gets nothing of the primary's writes
            t.pause(STALL_MIN_MS, STALL_MAX_MS);
            long replicaAt = Long.parseLong(info(replica.port(), "slave_repl_offset"));
            String promoted = ChaosTarget.redisCli(replica.port(), "REPLICAOF", "NO", "ONE");
            if (!promoted.equals("OK")) throw new IllegalStateException("REPLICAOF NO ONE answered " + promoted);
            String replicaMarker = ChaosTarget.redisCli(replica.port(), "HGET", sale, "at");
            // the old primary still takes writes: the clients have not learned of the failover
            t.pause(OLD_PRIMARY_MIN_MS, OLD_PRIMARY_MAX_MS);
            long primaryAt = Long.parseLong(info(primary.port(), "master_repl_offset"));
            String primaryMarker = ChaosTarget.redisCli(primary.port(), "HGET", sale, "at");
            long at = System.nanoTime();
            f.front().switchTo(replica.port());
            t.pauseFrom(at);
            String switched = java.time.LocalTime.now().toString();
            f.link().close(); // else SHUTDOWN waits its shutdown-timeout (10 s) for the replica to catch up
            primary.stop(); // SHUTDOWN NOSAVE: fenced, what it took since the stall is gone
            String lag = (primaryAt - replicaAt) + " bytes of replication stream (sale marker " + primaryMarker
                    + " on the old primary, " + replicaMarker + " on the promoted replica; switched at " + switched
                    + ")";
            String[] found = {""};
            t.check(
                    () -> "failover to a replica " + lag + " behind: stock-stream rebuilt the goods from its fold"
                            + " (its WARN line), units sold <= stock" + found[0],
                    () -> {
                        Map<String, Integer> rebuilt = StreamLog.rebuilds(t.logs, t.goods);
                        found[0] = "; rebuilds logged by cause: " + rebuilt;
                        if (primaryAt <= replicaAt) return "the replica did not lag: " + lag;
                        if (StreamLog.total(rebuilt) <= before || rebuilt.getOrDefault("lost", 0) < 1)
                            return "no rebuild (cause lost) logged after the failover: " + rebuilt;
                        try (Connection c = t.db()) {
                            long sold = Sales.liveOrders(c, t.goods);
                            if (sold > t.stock) return sold + " units sold of " + t.stock;
                        }
                        return null;
                    });
        };
    }

    /** A field of {@code INFO replication} of the server on {@code port}; "" when absent. */
    static String info(int port, String field) {
        for (String line : ChaosTarget.redisCli(port, "INFO", "replication").split("\r?\n"))
            if (line.startsWith(field + ":"))
                return line.substring(field.length() + 1).strip();
        return "";
    }
}
