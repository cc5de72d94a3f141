package dev.seckill.infra.bench.hostile;

import dev.seckill.contracts.command.CommandRules;
import dev.seckill.gateway.GatewayApp;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.bench.hostile.HostilePhases.Figures;
import dev.seckill.infra.bench.hostile.HostilePhases.Shape;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.infra.harness.ToolSettings;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.stack.RedisServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;

/**
 * {@code ./seckill bench hostile}: a sale next to the same sale under a hostile flood, in one run, black box over HTTP
 * against the gateway of an in-process pipeline (gateway, stock-stream, order-writer; auth on with a run secret) on the
 * local stack's Kafka and MariaDB and on a redis-server of the run's own, so that Redis's memory and key count are the
 * pipeline's alone. Buyers (each its own account and requestId) buy a sale alone (QUIET), then the same sale on another
 * goods while accounts post purchases of made-up goods at their per-user rate limit and connections send
 * unauthenticated GETs of random requestIds as fast as they are answered (FLOOD). Figures, QUIET next to FLOOD: the
 * buyers' time to answer, accepted purchases answered 404 to their owner, claims lost (another account's POST of a
 * buyer's requestId not refused 409, on the same gateway and on a second instance), Redis growth per million hostile
 * requests, how the hostile requests were answered, oversold. The run's topics, consumer groups, database and Redis are
 * removed at the end, also when it fails.
 */
public final class HostileBenchmark {
    private HostileBenchmark() {}

    static final int CLAIM_SAMPLE = 200;

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        PrintStream out = o.text();
        int buyers = (int) f.getLong("buyers");
        long stock = f.getLong("stock");
        Shape shape = new Shape(
                buyers,
                stock,
                (int) Math.min(CommandRules.MAX_QUANTITY, Math.max(1, (2 * stock + buyers - 1) / buyers)),
                (int) f.getCount("hostile-accounts"),
                (int) f.getCount("get-connections"),
                (int) f.getCount("seconds"),
                base.get(GatewaySettings.LIMIT_USER_PER_SECOND),
                (int) Math.max(1, base.get(GatewaySettings.LIMIT_USER_BURST)),
                CLAIM_SAMPLE);
        KafkaClients.require(base, "run ./seckill up");
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        String name = "bench-hostile-" + stamp;
        Path report = Path.of(f.get(
                "report",
                Path.of(base.get(ToolSettings.HOME), "reports", "hostile-" + stamp + ".txt")
                        .toString()));
        RedisServer redis = RedisServer.onFreePort().start();
        Thread stopRedis = new Thread(redis::stop, "bench-hostile-redis");
        Runtime.getRuntime().addShutdownHook(stopRedis); // Ctrl-C: no daemonized redis-server left behind
        out.printf(
                "bench hostile: %,d buyers (each its own account and requestId, Prefer: wait=%d, 202s polled)"
                        + " buy %d units each of a %,d-unit sale, alone (QUIET), then on another goods beside a flood"
                        + " (FLOOD): %d accounts posting made-up goods at their limit (%.0f/s, burst %d) and %d"
                        + " connections of unauthenticated GETs of random ids, for %s; a warm-up sale first;"
                        + " namespace %s, own redis-server %s, Kafka %s%n",
                shape.buyers(),
                HostileBuyers.WAIT_SECONDS,
                shape.quantity(),
                shape.stock(),
                shape.hostileAccounts(),
                shape.perUserRate(),
                shape.perUserBurst(),
                shape.getConnections(),
                shape.seconds() > 0 ? shape.seconds() + " s" : "the quiet sale's length + 5 s (at least 10 s)",
                name,
                redis.url(),
                base.kafkaBootstrap());
        // the status store on the same (measured) Redis, whatever the environment says
        Settings s = base.and(Map.of(
                Settings.REDIS_URL,
                redis.url(),
                Settings.REDIS_CLUSTER,
                "",
                "gateway.status.redis.url",
                "",
                GatewaySettings.PORT.name(),
                "0",
                GatewaySettings.METRICS_PORT.name(),
                "0"));
        Figures quiet;
        Figures flood;
        try {
            // closed also when a start fails half-way (what did start is stopped)
            Pipeline p = new Pipeline(Namespace.create(s, name));
            GatewayApp other = null;
            try {
                p.start();
                other = new GatewayApp(p.namespace().settings(), new SimpleMeterRegistry());
                other.start();
                HostilePhases phases = new HostilePhases(p, other.port(), redis.port(), shape, stamp, out);
                phases.warmUp();
                quiet = phases.quiet();
                flood = phases.flood(
                        shape.seconds() > 0
                                ? shape.seconds()
                                : Math.max(10, (int) Math.ceil(quiet.sale().seconds()) + 5));
            } finally {
                if (other != null) other.close();
                p.close();
            }
        } finally {
            cleanUp(s, name, redis, out);
            try {
                Runtime.getRuntime().removeShutdownHook(stopRedis);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        String table = HostileTable.render(shape, quiet, flood);
        out.print(table);
        HostileReport.write(report, "seckill bench hostile " + stamp, table, shape, quiet, flood);
        out.printf("report             %s%n", report.toAbsolutePath());
        boolean oversold = HostileReport.oversold(quiet, shape) > 0 || HostileReport.oversold(flood, shape) > 0;
        if (oversold) out.println("VIOLATION: more units sold than the stock");
        o.put("shape", shape)
                .put("quiet", figures(quiet, shape))
                .put("flood", figures(flood, shape))
                .put("floodOfQuietP99", flood.percentileMillis(99) / quiet.percentileMillis(99));
        return oversold ? 1 : 0;
    }

    /** A sale's figures for {@code --json}: what the table shows of it (never the buyers' tokens or ids). */
    private static Map<String, Object> figures(HostilePhases.Figures f, HostilePhases.Shape shape) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("answerP50Ms", f.percentileMillis(50));
        m.put("answerP99Ms", f.percentileMillis(99));
        m.put("unitsSold", f.unitsSold());
        m.put("oversold", HostileReport.oversold(f, shape));
        m.put("replies", f.sale().replies());
        m.put("owners", f.owners());
        m.put("notFoundWhilePolling", f.sale().notFoundCount());
        m.put("claimsSameInstance", f.claimsSame());
        m.put("claimsOtherInstance", f.claimsOther());
        m.put("redisBefore", f.before());
        m.put("redisAfter", f.after());
        m.put("flood", f.flood() == null ? Map.of() : f.flood());
        m.put("loadAverage", f.loadAverage());
        return m;
    }

    /**
     * The namespace's topics, consumer groups, Redis keys and database, then the run's redis-server. The stream's group
     * has static members (they do not leave it when they close): they are removed first, so that the group can go too.
     */
    private static void cleanUp(Settings s, String name, RedisServer redis, PrintStream out) {
        try {
            removeMembers(s, name + ".");
            out.println("cleaned            " + String.join("; ", new Namespaces(s).clean(name)));
        } catch (RuntimeException e) {
            System.err.println("bench hostile: cleaning up " + name + " failed: " + e.getMessage());
        } finally {
            redis.stop();
        }
    }

    /** Removes every member of the consumer groups under {@code prefix} (their services are closed). */
    private static void removeMembers(Settings s, String prefix) {
        try (Admin admin = KafkaClients.admin(s)) {
            for (var g : admin.listConsumerGroups().all().get(30, TimeUnit.SECONDS)) {
                if (!g.groupId().startsWith(prefix)) continue;
                try {
                    admin.removeMembersFromConsumerGroup(g.groupId(), new RemoveMembersFromConsumerGroupOptions())
                            .all()
                            .get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    // no members left, or a group of another kind: the clean below says what it kept
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            System.err.println("bench hostile: could not list the consumer groups " + prefix + "*: " + e.getMessage());
        }
    }
}
