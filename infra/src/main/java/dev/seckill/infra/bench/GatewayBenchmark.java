package dev.seckill.infra.bench;

import dev.seckill.contracts.Topics;
import dev.seckill.gateway.GatewayApp;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.cli.CliCommands;
import dev.seckill.infra.cli.Flags;
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

    /** How long a phase may wait for the JIT to go idle before its clock starts. */
    static final Duration JIT_QUIET = Duration.ofSeconds(20);

    /** Warm-up rounds after the first, until one compiled less than this (the JVM's own compile-time count). */
    private static final long SETTLED_JIT_MILLIS = 100;

    private static final int SETTLE_ROUND = 50_000;
    private static final int MAX_SETTLE_ROUNDS = 10;
    private static final long UNCAPPED = 10_000_000;

    /** Each phase has buyers of its own, so that back-to-back phases do not run into the per-user rate limit. */
    private static long firstUserOfPhase(int phase) {
        return 1 + phase * 10_000_000L;
    }

    static String describe(String generator) {
        return switch (generator) {
            case "raw" -> "this JVM, raw HTTP/1.1 on Netty (requests prepared beforehand)";
            default -> "this JVM, Vert.x core HTTP client";
        };
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
                        GatewaySettings.METRICS_PORT.name(),
                        "0",
                        GatewaySettings.AUTH_SECRET.name(),
                        secret,
                        GatewaySettings.LIMIT_GLOBAL_PER_SECOND.name(),
                        Long.toString(UNCAPPED),
                        GatewaySettings.LIMIT_GOODS_PER_SECOND.name(),
                        Long.toString(UNCAPPED)));
        TopicProvisioner.ensure(s, new Topics(s.topicPrefix()), TopicProvisioner.DEFAULT_PARTITIONS);
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
        GatewayPhase closed = new GatewayPhase(
                "requests", 1001, requests, concurrency, firstUserOfPhase(0), Math.max(1, requests / 2), 2, 0, 0);
        GatewayPhase open = new GatewayPhase(
                "at-rate",
                2001,
                settle + requests,
                concurrency,
                firstUserOfPhase(1),
                Math.max(1, (settle + requests) / 2),
                3,
                rate,
                settle);
        GatewaySummary closedLoop;
        GatewaySummary openLoop = null;
        List<Long> warmupJit = new ArrayList<>();
        PrometheusMeterRegistry gatewayMetrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (GatewayApp gateway = new GatewayApp(s, gatewayMetrics).start()) {
            Jwt jwt = new Jwt(secret, Clock.systemUTC());
            Instant exp = Instant.now().plusSeconds(3600);
            LongFunction<String> bearer = u -> "Bearer " + jwt.mint(u, exp);
            if (warmup > 0) {
                GatewayPhase first = new GatewayPhase(
                        "warm-up",
                        1_000_001,
                        warmup,
                        concurrency,
                        firstUserOfPhase(2),
                        Math.max(1, warmup / 2),
                        1,
                        0,
                        0);
                warmupJit.add(GatewayPhase.measure(first, generator, requestIds, gateway, gatewayMetrics, bearer, out)
                        .jitMillis());
                // then until the JIT has settled: the producer's sender loop runs once per batch, not per request, so
                // its
                // methods reach the C2 compiler only after many seconds of load, whatever the number of requests
                for (int round = 1;
                        round <= settleRounds && warmupJit.get(warmupJit.size() - 1) > SETTLED_JIT_MILLIS;
                        round++) {
                    GatewayPhase more = new GatewayPhase(
                            "settle " + round,
                            1_000_001 + round,
                            SETTLE_ROUND,
                            concurrency,
                            firstUserOfPhase(2 + round),
                            SETTLE_ROUND / 2,
                            10 + round,
                            0,
                            0);
                    warmupJit.add(
                            GatewayPhase.measure(more, generator, requestIds, gateway, gatewayMetrics, bearer, out)
                                    .jitMillis());
                }
            }
            closedLoop = GatewayPhase.measure(closed, generator, requestIds, gateway, gatewayMetrics, bearer, out);
            if (rate > 0)
                openLoop = GatewayPhase.measure(open, generator, requestIds, gateway, gatewayMetrics, bearer, out);
        }
        // the references, same JVM, same run: HTTP alone with this generator, and Kafka alone with the gateway's
        // producer
        double floor;
        try (HttpFloor http = new HttpFloor(Runtime.getRuntime().availableProcessors())) {
            RawHttpLoad.Result r = RawHttpLoad.run(
                    LoadSpec.closed(http.port(), 1, requests, concurrency, Math.max(1, requests / 2), 5, null)
                            .quietJit(JIT_QUIET),
                    done -> {});
            floor = r.acceptedPerSecond();
        }
        RawProducer.Result raw = RawProducer.run(
                s, new Topics(s.topicPrefix()).commands(), 3001, requests, concurrency, firstUserOfPhase(20));
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
        GatewaySummary.report(out, closedLoop, "");
        if (rate > 0) {
            out.printf(
                    "open loop          %,.0f requests/s offered over %d connections, latency from when each request was due%n",
                    rate, concurrency);
            GatewaySummary.report(out, openLoop, String.format(" (the %,d requests after the first 3 s)", requests));
        }
        out.printf(
                "raw producer       the gateway's producer alone (same settings, same records), %d in flight: %,.0f acks/s,"
                        + " ack latency p50 %.1f ms p99 %.1f ms%s%n",
                concurrency,
                raw.perSecond(),
                raw.p50(),
                raw.p99(),
                raw.failed() == 0 ? "" : ", " + raw.failed() + " failed");
        out.printf(
                "HTTP floor         the same generator against a server that answers 202 at once: %,.0f answers/s%n",
                floor);
        out.printf(
                "ratios             closed loop accepted/s ×%.2f of the raw producer's acks/s (target ≥ 0.5), ×%.2f of the"
                        + " HTTP floor%n",
                closedLoop.acceptedPerSecond() / raw.perSecond(), closedLoop.acceptedPerSecond() / floor);
        out.printf("the write-up       avg 38 ms, p99 95 ms (4 cores, JMeter, Redis+Lua in the request path)%n");
        out.printf("load generator     %s, sharing the 2 cores with the gateway and the broker%n", describe(generator));
        out.printf(
                "cleaned up         %d topics of this run deleted from the broker, %d Redis keys%n",
                ns.deleteTopics(), ns.deleteRedisKeys());
        return 0;
    }
}
