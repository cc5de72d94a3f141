package dev.seckill.infra.bench;

import dev.seckill.contracts.Topics;
import dev.seckill.gateway.GatewayApp;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.cli.CliCommands;
import dev.seckill.infra.cli.Flags;
import dev.seckill.infra.cli.ProgressBar;
import dev.seckill.infra.drill.LoadGenerator;
import dev.seckill.infra.drill.Namespace;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/**
 * {@code ./seckill bench gateway}: the write-up's experiment (500 concurrent clients, 50,000 requests) against the
 * gateway alone with a real broker: every request is verified (HS256), validated, rate-limited and acknowledged by
 * Kafka (acks=all) before its 202. Printed next to the write-up's own figures.
 */
public final class GatewayBenchmark {
    private GatewayBenchmark() {}

    static void report(PrintStream out, Summary r, String note) {
        out.printf("  HTTP status      %s, transport errors %d%n", r.byStatus(), r.errors());
        out.printf(
                "  accepted         %,d in %.1f s = %,.0f accepted/s%s%n",
                r.accepted(),
                r.elapsedNanos() / 1e9,
                r.acceptedPerSecond(),
                note.isEmpty() ? "" : " (the first 3 s included)");
        out.printf(
                "  accept latency   p50 %.1f ms   p99 %.1f ms   p99.9 %.1f ms%s%n", r.p50(), r.p99(), r.p999(), note);
        out.printf(
                "  in the gateway   p50 ≤ %.1f ms   p99 ≤ %.1f ms (handler → Kafka ack → reply, histogram buckets, whole phase)%n",
                r.gatewayP50(), r.gatewayP99());
        if (r.jitMillis() >= 0)
            out.printf("  JIT              %,d ms spent compiling during the phase%n", r.jitMillis());
    }

    /** How long a phase may wait for the JIT to go idle before its clock starts. */
    private static final Duration JIT_QUIET = Duration.ofSeconds(20);

    /** Warm-up rounds after the first, until one compiled less than this (the JVM's own compile-time count). */
    private static final long SETTLED_JIT_MILLIS = 100;

    private static final int SETTLE_ROUND = 50_000;
    private static final int MAX_SETTLE_ROUNDS = 10;
    private static final long UNCAPPED = 10_000_000;

    /** One run of the load generator: {@code rate} 0 for a closed loop; its first {@code settle} requests not counted. */
    record Phase(
            String name,
            long goodsId,
            int requests,
            int concurrency,
            long firstUser,
            int users,
            long seed,
            double rate,
            int settle) {}

    /** Each phase has buyers of its own, so that back-to-back phases do not run into the per-user rate limit. */
    private static long firstUserOfPhase(int phase) {
        return 1 + phase * 10_000_000L;
    }

    /** What a phase measured (percentiles over the requests after its settle). */
    record Summary(
            long accepted,
            Map<Integer, Long> byStatus,
            long errors,
            long elapsedNanos,
            double p50,
            double p99,
            double p999,
            double gatewayP50,
            double gatewayP99,
            long jitMillis) {
        double acceptedPerSecond() {
            return accepted / (elapsedNanos / 1e9);
        }
    }

    static String describe(String generator) {
        return switch (generator) {
            case "raw" -> "this JVM, raw HTTP/1.1 on Netty (requests prepared beforehand)";
            default -> "this JVM, Vert.x core HTTP client";
        };
    }

    /** Runs one phase with its own progress bar; percentiles over the requests after its settle. */
    private static Summary measure(
            Phase p,
            String generator,
            boolean requestIds,
            GatewayApp gateway,
            PrometheusMeterRegistry gatewayMetrics,
            LongFunction<String> bearer,
            PrintStream out)
            throws InterruptedException {
        ProgressBar bar = new ProgressBar(out, p.name(), p.requests());
        ServerLatencyWindow inGateway = ServerLatencyWindow.open(gatewayMetrics);
        Summary summary;
        if (generator.equals("raw")) {
            LoadSpec spec = new LoadSpec(
                    gateway.port(),
                    p.goodsId(),
                    p.requests(),
                    p.concurrency(),
                    p.firstUser(),
                    p.users(),
                    p.seed(),
                    bearer,
                    p.rate(),
                    JIT_QUIET,
                    requestIds ? "bench-" + p.seed() + "-" : null,
                    0);
            RawHttpLoad.Result r = RawHttpLoad.run(spec, bar::update);
            summary = new Summary(
                    r.accepted(),
                    r.byStatus(),
                    r.errors(),
                    r.elapsedNanos(),
                    r.percentileMillis(50, p.settle()),
                    r.percentileMillis(99, p.settle()),
                    r.percentileMillis(99.9, p.settle()),
                    inGateway.percentileMillis(0.5),
                    inGateway.percentileMillis(0.99),
                    r.jitMillis());
        } else {
            LoadGenerator.Result r = LoadGenerator.run(
                    gateway.port(),
                    p.goodsId(),
                    p.requests(),
                    p.concurrency(),
                    p.firstUser(),
                    p.users(),
                    p.seed(),
                    bearer,
                    bar::update,
                    p.rate(),
                    false);
            summary = new Summary(
                    r.accepted(),
                    r.byStatus(),
                    r.errors(),
                    r.elapsedNanos(),
                    r.percentileMillis(50, p.settle()),
                    r.percentileMillis(99, p.settle()),
                    r.percentileMillis(99.9, p.settle()),
                    inGateway.percentileMillis(0.5),
                    inGateway.percentileMillis(0.99),
                    -1);
        }
        bar.finish(p.requests()); // the generator returns once every request has its answer
        return summary;
    }

    public static int run(Settings base, String[] args, PrintStream out) throws Exception {
        Flags f = CliCommands.BENCH_GATEWAY.parse(args);
        int requests = (int) f.getLong("requests", 50_000);
        int concurrency = (int) f.getLong("concurrency", 500);
        int warmup = (int) f.getLong("warmup", 100_000);
        int settleRounds = (int) f.getCount("settle-rounds", MAX_SETTLE_ROUNDS);
        double rate = f.has("closed-only") ? 0 : f.getLong("rate", 15_000);
        String generator = f.get("generator", "raw");
        boolean requestIds = f.has("request-ids");
        if (requestIds && !generator.equals("raw")) throw new Flags.UsageError("--request-ids needs the raw generator");
        if (!Set.of("raw", "jvm").contains(generator)) throw new Flags.UsageError("--generator is raw or jvm");
        String name = "bench-gw-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        String secret = UUID.randomUUID() + "-" + UUID.randomUUID();
        Namespace ns = Namespace.create(base, name);
        // the global and per-goods buckets (100k/s and 50k/s by default) would cap a closed loop of one goods on a fast
        // machine and turn the measurement into one of 429s; they are still checked on every request, only higher
        Settings s = ns.settings()
                .and(Map.of(
                        GatewaySettings.PORT.name(),
                        "0",
                        GatewaySettings.AUTH_SECRET.name(),
                        secret,
                        GatewaySettings.LIMIT_GLOBAL_PER_SECOND.name(),
                        Long.toString(UNCAPPED),
                        GatewaySettings.LIMIT_GOODS_PER_SECOND.name(),
                        Long.toString(UNCAPPED)));
        TopicProvisioner.ensure(s.kafkaBootstrap(), new Topics(s.topicPrefix()), TopicProvisioner.DEFAULT_PARTITIONS);
        out.printf(
                "bench gateway: %,d requests from %d concurrent clients (after a %,d-request warm-up and up to %d rounds more until the "
                        + "JIT settles), auth on, acks=all, per-user rate limit on, %s, load generator in %s, namespace %s%n",
                requests,
                concurrency,
                warmup,
                settleRounds,
                requestIds
                        ? "every request with its own client requestId (the idempotent path)"
                        : "requestIds assigned by the gateway",
                describe(generator),
                name);
        // the open loop opens its own connections and warms its own client: its first 3 seconds are not counted
        // (wrk2 likewise leaves out a calibration period)
        int settle = (int) (rate * 3);
        Phase closed = new Phase(
                "requests", 1001, requests, concurrency, firstUserOfPhase(0), Math.max(1, requests / 2), 2, 0, 0);
        Phase open = new Phase(
                "at-rate",
                2001,
                settle + requests,
                concurrency,
                firstUserOfPhase(1),
                Math.max(1, (settle + requests) / 2),
                3,
                rate,
                settle);
        Summary closedLoop;
        Summary openLoop = null;
        List<Long> warmupJit = new ArrayList<>();
        PrometheusMeterRegistry gatewayMetrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (GatewayApp gateway = new GatewayApp(s, gatewayMetrics).start()) {
            Jwt jwt = new Jwt(secret, Clock.systemUTC());
            Instant exp = Instant.now().plusSeconds(3600);
            LongFunction<String> bearer = u -> "Bearer " + jwt.mint(u, exp);
            if (warmup > 0) {
                Phase first = new Phase(
                        "warm-up",
                        1_000_001,
                        warmup,
                        concurrency,
                        firstUserOfPhase(2),
                        Math.max(1, warmup / 2),
                        1,
                        0,
                        0);
                warmupJit.add(measure(first, generator, requestIds, gateway, gatewayMetrics, bearer, out)
                        .jitMillis());
                // then until the JIT has settled: the producer's sender loop runs once per batch, not per request, so
                // its
                // methods reach the C2 compiler only after many seconds of load, whatever the number of requests
                for (int round = 1;
                        round <= settleRounds && warmupJit.get(warmupJit.size() - 1) > SETTLED_JIT_MILLIS;
                        round++) {
                    Phase more = new Phase(
                            "settle " + round,
                            1_000_001 + round,
                            SETTLE_ROUND,
                            concurrency,
                            firstUserOfPhase(2 + round),
                            SETTLE_ROUND / 2,
                            10 + round,
                            0,
                            0);
                    warmupJit.add(measure(more, generator, requestIds, gateway, gatewayMetrics, bearer, out)
                            .jitMillis());
                }
            }
            closedLoop = measure(closed, generator, requestIds, gateway, gatewayMetrics, bearer, out);
            if (rate > 0) openLoop = measure(open, generator, requestIds, gateway, gatewayMetrics, bearer, out);
        }
        out.printf("%n== bench gateway ==%n");
        if (!warmupJit.isEmpty()) {
            out.printf(
                    "warm-up            %,d requests%s; JIT compile time per round: %s ms%n",
                    warmup,
                    warmupJit.size() == 1
                            ? ""
                            : String.format(
                                    " + %d rounds of %,d until a round compiled < %d ms (at most %d rounds)",
                                    warmupJit.size() - 1, SETTLE_ROUND, SETTLED_JIT_MILLIS, settleRounds),
                    warmupJit.stream()
                            .map(j -> j < 0 ? "?" : String.format("%,d", j))
                            .collect(Collectors.joining(" / ")));
        }
        out.printf(
                "closed loop        %d clients, each sends its next request when the last is answered (the write-up's JMeter run)%n",
                concurrency);
        report(out, closedLoop, "");
        if (rate > 0) {
            out.printf(
                    "open loop          %,.0f requests/s offered over %d connections, latency from when each request was due%n",
                    rate, concurrency);
            report(out, openLoop, String.format(" (the %,d requests after the first 3 s)", requests));
        }
        out.printf("the write-up       avg 38 ms, p99 95 ms (4 cores, JMeter, Redis+Lua in the request path)%n");
        out.printf("load generator     %s, sharing the 2 cores with the gateway and the broker%n", describe(generator));
        out.printf(
                "cleaned up         %d topics of this run deleted from the broker, %d Redis keys%n",
                ns.deleteTopics(), ns.deleteRedisKeys());
        return 0;
    }
}
