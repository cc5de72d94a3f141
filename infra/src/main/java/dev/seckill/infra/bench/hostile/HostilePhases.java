package dev.seckill.infra.bench.hostile;

import dev.seckill.infra.harness.Latencies;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.ProgressBar;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * The sales of one {@code bench hostile} run against one pipeline, each on a goods of its own with buyers of their own:
 * a warm-up sale (not measured: the JIT and the connections of the first sale are no part of either figure), the QUIET
 * sale, then the same sale with the {@link HostileFlood} running from a second before its buyers start until its
 * length is over and every buyer has its answer and the checks are done. After each measured sale, the checks
 * ({@link HostileChecks}) against the gateway the buyers used and against a second instance of it (same Redis, same
 * topics: the claims a gateway holds in memory do not answer there).
 */
final class HostilePhases {
    /** The run's shape; {@code quantity} units per buyer, so the buyers ask for twice the stock and it sells out. */
    record Shape(
            int buyers,
            long stock,
            int quantity,
            int hostileAccounts,
            int getConnections,
            int seconds,
            double perUserRate,
            int perUserBurst,
            int claimSample) {}

    /** What one sale measured ({@code flood}: null for the quiet one); the machine's 1-minute load after it. */
    record Figures(
            String name,
            HostileSale sale,
            HostileChecks.Owners owners,
            HostileChecks.Claims claimsSame,
            HostileChecks.Claims claimsOther,
            RedisUsage before,
            RedisUsage after,
            HostileFlood.Counts flood,
            double loadAverage) {
        /** A percentile of the buyers' times to answer (a buyer that gave up counts at the minute it waited). */
        double percentileMillis(double p) {
            return Latencies.percentileMillis(sale.micros(), p, 0);
        }

        long unitsSold() {
            return sale.count("SUCCESS") * sale.quantity();
        }
    }

    static final long WARMUP_GOODS = 9_100;
    static final long QUIET_GOODS = 9_101;
    static final long FLOOD_GOODS = 9_102;
    static final long HOSTILE_ACCOUNTS = 90_000_000L;
    private static final long THIEVES = 50_000_000L;
    private static final Duration RAMP = Duration.ofSeconds(1);

    private final Pipeline pipeline;
    private final int otherGateway;
    private final int redisPort;
    private final Shape shape;
    private final String runId;
    private final PrintStream out;

    HostilePhases(Pipeline pipeline, int otherGateway, int redisPort, Shape shape, String runId, PrintStream out) {
        this.pipeline = pipeline;
        this.otherGateway = otherGateway;
        this.redisPort = redisPort;
        this.shape = shape;
        this.runId = runId;
        this.out = out;
    }

    /** The warm-up sale: the same shape, nothing kept but a line. */
    void warmUp() throws InterruptedException {
        HostileSale s = sale(0, WARMUP_GOODS, "warm-up");
        out.printf("  warm-up          %d buyers answered in %.1f s (not measured)%n", s.buyers(), s.seconds());
    }

    /** The sale alone: the reference. Returns its figures; its length is the flood's default length. */
    Figures quiet() throws InterruptedException {
        RedisUsage before = open(QUIET_GOODS);
        HostileSale s = sale(1, QUIET_GOODS, "quiet");
        return checked("QUIET", 1, s, before);
    }

    /** The same sale with the flood: {@code seconds} at least, and on until the buyers and checks are done. */
    Figures flood(int seconds) throws InterruptedException {
        RedisUsage before = open(FLOOD_GOODS);
        HostileFlood flood = HostileFlood.start(
                pipeline.gatewayPort(),
                shape.hostileAccounts(),
                HOSTILE_ACCOUNTS,
                pipeline::bearer,
                shape.perUserRate(),
                shape.perUserBurst(),
                shape.getConnections());
        try {
            Thread.sleep(RAMP.toMillis());
            out.printf("  flood            on: %,d requests in its first second%n", flood.sent());
            HostileSale s = sale(2, FLOOD_GOODS, "flood");
            Figures checked = checked("FLOOD", 2, s, null);
            ProgressBar bar = new ProgressBar("flood s", seconds);
            while (flood.seconds() < seconds) {
                bar.update((long) flood.seconds());
                Thread.sleep(200);
            }
            bar.finish(seconds);
            HostileFlood.Counts counts = flood.stop();
            out.printf(
                    "  flood            %,d hostile requests in %.1f s (%,.0f/s): %,d POSTs of made-up goods, %,d GETs"
                            + " of random ids%n",
                    counts.sent(), counts.seconds(), counts.sent() / counts.seconds(), counts.posts(), counts.gets());
            RedisUsage after = RedisUsage.settled(redisPort);
            return new Figures(
                    "FLOOD",
                    s,
                    checked.owners(),
                    checked.claimsSame(),
                    checked.claimsOther(),
                    before,
                    after,
                    counts,
                    checked.loadAverage());
        } finally {
            flood.close();
        }
    }

    private RedisUsage open(long goods) throws InterruptedException {
        pipeline.openSale(goods, shape.stock(), Duration.ofHours(1), shape.quantity());
        return RedisUsage.settled(redisPort);
    }

    private HostileSale sale(int phase, long goods, String label) throws InterruptedException {
        return HostileBuyers.buy(
                pipeline.gatewayPort(),
                goods,
                shape.quantity(),
                shape.buyers(),
                1_000_000L * (phase + 1),
                "hb-" + runId + "-" + phase + "-",
                pipeline::bearer,
                new ProgressBar(label, shape.buyers()));
    }

    /** The owners' lookups and the claims, both gateways; with {@code before} given, Redis is read once settled. */
    private Figures checked(String name, int phase, HostileSale s, RedisUsage before) throws InterruptedException {
        HostileChecks.Owners owners = HostileChecks.owners(pipeline.gatewayPort(), s);
        long thieves = THIEVES + phase * 1_000_000L;
        HostileChecks.Claims same =
                HostileChecks.claims(pipeline.gatewayPort(), s, shape.claimSample(), thieves, pipeline::bearer);
        HostileChecks.Claims other =
                HostileChecks.claims(otherGateway, s, shape.claimSample(), thieves + 500_000, pipeline::bearer);
        out.printf(
                "  %-16s %d buyers answered in %.1f s; owners' lookups: %d of %d accepted answered 404; claims lost: %d"
                        + " of %d (this gateway), %d of %d (another instance)%n",
                name.toLowerCase(Locale.ROOT),
                s.buyers(),
                s.seconds(),
                owners.notFound(),
                owners.asked(),
                same.lost(),
                same.tried(),
                other.lost(),
                other.tried());
        // the machine's, not this run's: other work on the same cores makes every figure slower
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        RedisUsage after = before == null ? null : RedisUsage.settled(redisPort);
        return new Figures(name, s, owners, same, other, before, after, null, load);
    }
}
