package dev.seckill.infra.chaos;

import dev.seckill.infra.chaos.ChaosServers.Kind;
import java.util.List;
import java.util.Set;

/**
 * A fault the running pipeline meets, injected mid-sale (once a quarter to a half of the stock is sold) at seeded
 * random moments: what it breaks, the servers it needs of its own (so the machine's shared ones are never broken), and
 * whether the reconciler runs beside the three services.
 */
record ChaosScenario(String name, String what, Set<Kind> owns, boolean reconciler, Fault fault) {
    /** Injects the fault while the buyers buy; records each fault and its recovery on the target. */
    interface Fault {
        void inject(ChaosTarget target) throws Exception;
    }

    static final List<ChaosScenario> ALL = List.of(
            new ChaosScenario(
                    "kill-stream",
                    "SIGKILL of stock-stream while it decides, three times",
                    Set.of(),
                    false,
                    ProcessFaults.kill("stock-stream", 3)),
            new ChaosScenario(
                    "kill-writer",
                    "SIGKILL of order-writer while it writes, twice",
                    Set.of(),
                    false,
                    ProcessFaults.kill("order-writer", 2)),
            new ChaosScenario(
                    "kill-gateway",
                    "SIGKILL of the gateway with requests in flight, twice: every purchase it took is decided once",
                    Set.of(),
                    false,
                    ProcessFaults.kill("gateway", 2)),
            new ChaosScenario(
                    "kill-broker",
                    "SIGKILL of the broker leading the sale's partition, restarted later (1 broker: 3 s; 3: 8 s)",
                    Set.of(Kind.BROKER),
                    false,
                    ServerFaults.killBroker()),
            new ChaosScenario(
                    "redis-restart",
                    "Redis restarted without persistence (every hot key gone); stock-stream and the reconciler restore the sale",
                    Set.of(Kind.REDIS),
                    true,
                    ServerFaults.restartRedis()),
            new ChaosScenario(
                    "db-stop",
                    "the database stopped for " + ServerFaults.DB_DOWN_SECONDS + " s, then started again",
                    Set.of(Kind.DB),
                    false,
                    ServerFaults.stopDb()),
            new ChaosScenario(
                    "slow-redis",
                    "Redis blocked by DEBUG SLEEP 3, twice",
                    Set.of(Kind.REDIS),
                    false,
                    ServerFaults.slowRedis()),
            new ChaosScenario(
                    "slow-db",
                    "the sale's row locked by another transaction for 8 s, twice",
                    Set.of(),
                    false,
                    ServerFaults.slowDb()),
            new ChaosScenario(
                    "poison",
                    "a poison storm on <prefix>commands in the sale's partition: 3 bursts of "
                            + TrafficFaults.POISON_PER_BURST + " hostile records",
                    Set.of(),
                    false,
                    TrafficFaults.poisonStorm()),
            new ChaosScenario(
                    "retries",
                    TrafficFaults.UPSTREAM_PURCHASES + " purchases produced " + TrafficFaults.UPSTREAM_COPIES
                            + " times each upstream; " + ClientRetries.BUYERS + " buyers sending theirs "
                            + ClientRetries.COPIES + " times at once",
                    Set.of(),
                    false,
                    TrafficFaults.upstreamRetries()),
            new ChaosScenario(
                    "rebalance",
                    "a second stock-stream joins; the first SIGKILLed while the group rebalances, restarted",
                    Set.of(),
                    false,
                    ProcessFaults.killDuringRebalance()),
            new ChaosScenario(
                    "redis-stale",
                    "Redis restarted from a snapshot older than its last writes (SAVE, more sales, SHUTDOWN NOSAVE, start"
                            + " from that dump.rdb), twice; stock-stream rebuilds the keys from its ledger fold",
                    Set.of(Kind.REDIS),
                    false,
                    StaleRedis.restartFromOldSnapshot()),
            new ChaosScenario(
                    "redis-wipe-ops",
                    "Redis emptied (FLUSHALL) right before an open and a close of the goods mid-sale, a pay and a release"
                            + " (payment timeout); each decided as if nothing was lost, the open refused while the sale is live",
                    Set.of(Kind.REDIS),
                    false,
                    WipedOps.wipeBeforeEachOperation()),
            new ChaosScenario(
                    "id-reuse",
                    "hostile buyers and upstream producers reusing one requestId across goods, buyers, quantities and"
                            + " two sales of a second goods: 409/422 at the gateway, REJECTED invalid on the commands topic",
                    Set.of(),
                    false,
                    IdReuse.hostileIds()),
            new ChaosScenario(
                    "redis-failover",
                    "a replica (--replicaof) cut off from its primary 0.3-1 s, promoted (REPLICAOF NO ONE) while the old"
                            + " primary still takes writes, the services' Redis address moved to it, the old one fenced",
                    Set.of(Kind.REDIS, Kind.REDIS_REPLICA),
                    false,
                    RedisFailover.promoteLaggingReplica()),
            new ChaosScenario(
                    "draw-kill",
                    "a lottery sale of a second goods with stock-stream SIGKILLed inside its window: the same winners,"
                            + " by the draw recomputed from the topics",
                    Set.of(),
                    false,
                    DrawKill.killInTheWindow()),
            new ChaosScenario(
                    "writer-reorder",
                    "order-writer SIGKILLed mid-sale; while it is down an upstream producer cancels the purchase of "
                            + WriterReorder.BUYERS + " buyers holding a SUCCESS (release naming it, cancelled /"
                            + " order_failed) and each buys again at once, every " + WriterReorder.TWICE_EVERY
                            + "rd twice; then the writer is started again",
                    Set.of(),
                    false,
                    WriterReorder.cancelAndRebuyWhileTheWriterIsDown()),
            new ChaosScenario(
                    "pause-stream",
                    "SIGSTOP of stock-stream for 3 s (past its lease and its session), then SIGCONT, twice: a frozen"
                            + " instance must be taken over and fenced, and write nothing once it goes on",
                    Set.of(),
                    false,
                    ProcessFaults.pause("stock-stream", 2, 3_000)));

    static ChaosScenario named(String name) {
        return ALL.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no chaos scenario " + name + "; there are "
                        + String.join(
                                ", ", ALL.stream().map(ChaosScenario::name).toList())));
    }
}
