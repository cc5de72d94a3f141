package dev.seckill.infra.bench.gateway;

import dev.seckill.contracts.Topics;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.bench.BenchTracing;
import dev.seckill.infra.bench.Targets;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ./seckill bench gateway}: the write-up's experiment (500 concurrent clients, 50,000 requests) against the
 * gateway alone with a real broker: every request is verified (an HS256 token, or an RS256 one against a JWKS with
 * {@code --token rs256}; {@code both}: a gateway each, one after the other, and their ratio), validated, rate-limited
 * and acknowledged by Kafka (acks=all) before its 202. Printed next to the write-up's own figures.
 */
public final class GatewayBenchmark {
    private GatewayBenchmark() {}

    /** How long a phase may wait for the JIT to go idle before its clock starts. */
    static final Duration JIT_QUIET = Duration.ofSeconds(20);

    private static final int MAX_SETTLE_ROUNDS = 10;
    private static final long UNCAPPED = 10_000_000;

    static String describe(String generator) {
        return switch (generator) {
            case "raw" -> "this JVM, raw HTTP/1.1 on Netty (requests prepared beforehand)";
            default -> "this JVM, Vert.x core HTTP client";
        };
    }

    /** The values of the flags this benchmark reads by name, refused before anything starts. */
    public static void refuseBadFlags(Flags f) {
        String generator = f.get("generator");
        if (!Set.of("raw", "jvm").contains(generator)) throw new Flags.UsageError("--generator is raw or jvm");
        if (f.has("request-ids") && !generator.equals("raw"))
            throw new Flags.UsageError("--request-ids needs the raw generator");
        if (!Set.of("hs256", "rs256", "both").contains(f.get("token")))
            throw new Flags.UsageError("--token is hs256, rs256 or both");
    }

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        refuseBadFlags(f);
        try (AutoCloseable tracing = BenchTracing.startIf(f, base, "ingress-gateway", o.text())) {
            return measure(base, f, o);
        }
    }

    private static int measure(Settings base, Flags f, ReportOutput o) throws Exception {
        PrintStream out = o.text();
        String generator = f.get("generator");
        GatewayRun.Load load = new GatewayRun.Load(
                (int) f.getLong("requests"),
                (int) f.getLong("concurrency"),
                (int) f.getLong("warmup"),
                (int) f.getCount("settle-rounds", MAX_SETTLE_ROUNDS),
                f.has("closed-only") ? 0 : f.getLong("rate"),
                generator,
                f.has("request-ids"));
        int requests = load.requests();
        int concurrency = load.concurrency();
        List<String> kinds = switch (f.get("token")) {
            case "hs256" -> List.of("hs256");
            case "rs256" -> List.of("rs256");
            case "both" -> List.of("hs256", "rs256");
            default -> throw new Flags.UsageError("--token is hs256, rs256 or both");
        };
        String name = "bench-gw-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Namespace ns = Namespace.create(base, name);
        // the global and per-goods buckets (100k/s and 50k/s by default) would cap a closed loop of one goods on a fast
        // machine and turn the measurement into one of 429s; they are still checked on every request, only higher
        Settings s = ns.settings()
                .and(Map.of(
                        GatewaySettings.PORT.name(),
                        "0",
                        GatewaySettings.METRICS_PORT.name(),
                        "0",
                        GatewaySettings.LIMIT_GLOBAL_PER_SECOND.name(),
                        Long.toString(UNCAPPED),
                        GatewaySettings.LIMIT_GOODS_PER_SECOND.name(),
                        Long.toString(UNCAPPED)));
        TopicProvisioner.ensure(s, new Topics(s.topicPrefix()));
        out.printf(
                "bench gateway: %,d requests from %d concurrent clients (after a %,d-request warm-up and up to %d rounds more until the "
                        + "JIT settles), auth on (%s tokens%s), acks=all, per-user rate limit on, %s, load generator in %s, namespace %s%n",
                requests,
                concurrency,
                load.warmup(),
                load.settleRounds(),
                String.join(" then ", kinds).toUpperCase(),
                kinds.size() > 1 ? ", a gateway each" : "",
                load.requestIds()
                        ? "every request with its own client requestId (the idempotent path)"
                        : "requestIds assigned by the gateway",
                describe(generator),
                name);
        List<GatewayRun> runs = new ArrayList<>();
        for (int k = 0; k < kinds.size(); k++) {
            try (BenchTokens tokens = BenchTokens.of(kinds.get(k))) {
                runs.add(GatewayRun.measure(s.and(tokens.gatewaySettings()), tokens, k, load, out));
            }
        }
        GatewaySummary closedLoop = runs.get(0).closed();
        // the references, same JVM, same run: HTTP alone with this generator, and Kafka alone with the gateway's
        // producer
        double floor;
        try (HttpFloor http = new HttpFloor(Runtime.getRuntime().availableProcessors())) {
            HttpLoad.Result r = HttpLoad.run(
                    LoadSpec.closed(http.port(), 1, requests, concurrency, Math.max(1, requests / 2), 5, null)
                            .quietJit(JIT_QUIET),
                    done -> {});
            floor = r.acceptedPerSecond();
        }
        RawProducer.Result raw = RawProducer.run(
                s,
                new Topics(s.topicPrefix()).commands(),
                3001,
                requests,
                concurrency,
                GatewayRun.firstUserOfPhase(kinds.size(), 0));
        out.printf("%n== bench gateway ==%n");
        runs.forEach(r -> r.report(out, load));
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
                "ratios             closed loop accepted/s ×%.2f of the raw producer's acks/s (target %s: %s), ×%.2f of"
                        + " the HTTP floor%n",
                closedLoop.acceptedPerSecond() / raw.perSecond(),
                Targets.GATEWAY_CLOSED_LOOP.bound(),
                Targets.GATEWAY_CLOSED_LOOP.verdict(closedLoop.acceptedPerSecond() / raw.perSecond()),
                closedLoop.acceptedPerSecond() / floor);
        if (runs.size() == 2) {
            out.printf(
                    "RS256 / HS256      closed loop accepted/s ×%.2f (%,.0f / %,.0f; a buyer's first request verifies its token, the"
                            + " next ones find it in the cache)%n",
                    runs.get(1).closed().acceptedPerSecond() / closedLoop.acceptedPerSecond(),
                    runs.get(1).closed().acceptedPerSecond(),
                    closedLoop.acceptedPerSecond());
        }
        List<Map<String, Object>> phases = new ArrayList<>();
        for (GatewayRun r : runs) {
            Map<String, Object> phase = new java.util.LinkedHashMap<>();
            phase.put("tokens", r.tokens());
            phase.put("closedAcceptedPerSecond", r.closed().acceptedPerSecond());
            phase.put("closed", r.closed());
            phase.put("open", r.open());
            phases.add(phase);
        }
        o.put("runs", phases)
                .put("rawProducerAcksPerSecond", raw.perSecond())
                .put("httpFloorPerSecond", floor)
                .put("ofRawProducer", closedLoop.acceptedPerSecond() / raw.perSecond())
                .put("ofHttpFloor", closedLoop.acceptedPerSecond() / floor);
        out.printf("the write-up       avg 38 ms, p99 95 ms (4 cores, JMeter, Redis+Lua in the request path)%n");
        out.printf("load generator     %s, sharing the 2 cores with the gateway and the broker%n", describe(generator));
        out.printf(
                "cleaned up         %d topics of this run deleted from the broker, %d Redis keys%n",
                ns.deleteTopics(), ns.deleteRedisKeys());
        return 0;
    }
}
