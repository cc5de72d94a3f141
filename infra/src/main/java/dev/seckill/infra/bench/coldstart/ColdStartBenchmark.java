package dev.seckill.infra.bench.coldstart;

import dev.seckill.contracts.Topics;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.ServiceProcess;
import dev.seckill.kit.config.KafkaSettings;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.WarmupSettings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.ServerProcess;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongFunction;

/**
 * {@code ./seckill bench coldstart}: "the first second of a sale is the whole sale" (item 5). Starts the
 * gateway and stock-stream as fresh JVMs of their own (as {@code ./seckill run} does), opens a sale the moment both
 * answer {@code /health} 200, fires it at the gateway (closed loop, the raw generator) and reports accept latency in
 * the sale's first second and overall, for three variants in the same run: fresh services with their warm-up off,
 * fresh services warming themselves before ready, and services warmed by sale traffic on another goods first.
 */
public final class ColdStartBenchmark {
    private static final long SALE_GOODS = 1001;
    private static final long WARM_TRAFFIC_GOODS = 2001;
    private static final String UNCAPPED = "10000000";

    /** One variant: whether the services warm themselves, and how many sale requests on another goods come first. */
    record Variant(String name, boolean selfWarm, int trafficFirst) {}

    /** What a variant measured. */
    record Outcome(Variant variant, long gatewayReadyMs, long streamReadyMs, String warmups, SaleLatency sale) {}

    private ColdStartBenchmark() {}

    /** The values of the flags this benchmark reads by name, refused before anything starts. */
    public static void refuseBadFlags(Flags f) {
        for (String v : f.get("variants").split(","))
            if (!Set.of("cold", "warm-up", "warmed").contains(v))
                throw new Flags.UsageError("--variants lists cold, warm-up, warmed");
    }

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        refuseBadFlags(f);
        PrintStream out = o.text();
        int requests = (int) f.getLong("requests");
        int concurrency = (int) f.getLong("concurrency");
        long stock = f.getLong("stock");
        int users = (int) f.getLong("users", Math.max(1, requests / 2));
        int warmTraffic = (int) f.getCount("warm-traffic");
        int gatewayWarmup = (int) f.getCount("gateway-warmup", WarmupSettings.gatewayRequests(base));
        int streamWarmup = (int) f.getCount("stream-warmup", WarmupSettings.streamCommands(base));
        Map<String, Variant> all = new LinkedHashMap<>();
        all.put("cold", new Variant("fresh, warm-up off", false, 0));
        all.put("warm-up", new Variant("fresh, warm-up on", true, 0));
        all.put("warmed", new Variant("warmed by traffic", false, warmTraffic));
        List<Variant> variants = new ArrayList<>();
        for (String v : f.get("variants").split(",")) {
            if (!all.containsKey(v)) throw new Flags.UsageError("--variants lists cold, warm-up, warmed");
            variants.add(all.get(v));
        }
        String name = "bench-cold-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        out.printf(
                "bench coldstart: %,d requests from %d connections over %,d buyers, %,d units; gateway and stock-stream as fresh "
                        + "JVMs per variant; self warm-up %,d gateway requests / %,d stream purchases; warmed = %,d requests on goods %d first%n",
                requests, concurrency, users, stock, gatewayWarmup, streamWarmup, warmTraffic, WARM_TRAFFIC_GOODS);
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            Variant v = variants.get(i);
            Namespace ns = Namespace.create(base, name + "-" + i);
            try {
                outcomes.add(variant(
                        ns,
                        v,
                        v.selfWarm() ? gatewayWarmup : 0,
                        v.selfWarm() ? streamWarmup : 0,
                        requests,
                        concurrency,
                        stock,
                        users,
                        out));
            } finally {
                ns.deleteTopics();
                ns.deleteRedisKeys();
            }
        }
        ColdStartReport.print(out, outcomes, requests, concurrency);
        o.put("variants", outcomes);
        return 0;
    }

    private static Outcome variant(
            Namespace ns,
            Variant v,
            int gatewayWarmup,
            int streamWarmup,
            int requests,
            int concurrency,
            long stock,
            int users,
            PrintStream out)
            throws Exception {
        Settings s = ns.settings();
        Topics topics = new Topics(s.topicPrefix());
        TopicProvisioner.ensure(s, topics); // a deployment finds its topics
        int gatewayPort = ServerProcess.freePort();
        int gatewayAdminPort = ServerProcess.freePort();
        int streamPort = ServerProcess.freePort();
        String secret = UUID.randomUUID() + "-" + UUID.randomUUID();
        Map<String, String> env = new LinkedHashMap<>(KafkaSettings.environment(s)); // bootstrap and security
        env.putAll(Map.of(
                "SECKILL_REDIS_URL",
                s.redisUrl(),
                "SECKILL_REDIS_CLUSTER",
                s.redisCluster(),
                "SECKILL_TOPIC_PREFIX",
                s.topicPrefix(),
                "SECKILL_REDIS_PREFIX",
                s.redisPrefix(),
                "SECKILL_GATEWAY_PORT",
                Integer.toString(gatewayPort),
                "SECKILL_GATEWAY_METRICS_PORT",
                Integer.toString(gatewayAdminPort),
                "SECKILL_GATEWAY_AUTH_SECRET",
                secret,
                "SECKILL_STREAM_METRICS_PORT",
                Integer.toString(streamPort)));
        // as bench gateway: the global and per-goods buckets still checked on every request, only not the limit
        // measured
        env.putAll(Map.of(
                "SECKILL_GATEWAY_LIMIT_GLOBAL_PER_SECOND",
                UNCAPPED,
                "SECKILL_GATEWAY_LIMIT_GOODS_PER_SECOND",
                UNCAPPED,
                "SECKILL_GATEWAY_WARMUP_REQUESTS",
                Integer.toString(gatewayWarmup),
                "SECKILL_STREAM_WARMUP_COMMANDS",
                Integer.toString(streamWarmup)));
        Path logs = Path.of(System.getenv().getOrDefault("SECKILL_HOME", ".seckill"), "logs");
        out.printf("%n-- %s (namespace %s)%n", v.name(), ns.name());
        Jwt jwt = new Jwt(secret, Clock.systemUTC());
        Instant exp = Instant.now().plusSeconds(3600);
        LongFunction<String> bearer = u -> "Bearer " + jwt.mint(u, exp);
        try (ServiceProcess stream = ServiceProcess.start(
                        "stock-stream",
                        "dev.seckill.stock.StockStreamApp",
                        List.of("-XX:+UseG1GC"),
                        env,
                        logs.resolve(ns.name() + "-stock-stream.log"));
                ServiceProcess gateway = ServiceProcess.start(
                        "gateway",
                        "dev.seckill.gateway.GatewayApp",
                        List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20"),
                        env,
                        logs.resolve(ns.name() + "-gateway.log"))) {
            long gatewayReady = gateway.awaitHealthy(gatewayPort, Duration.ofMinutes(5));
            long streamReady = stream.awaitHealthy(streamPort, Duration.ofMinutes(5));
            out.printf(
                    "ready after        gateway %,d ms, stock-stream %,d ms (JVM start to /health 200)%n",
                    gatewayReady, streamReady);
            if (v.trafficFirst() > 0) {
                Sales.open(s, WARM_TRAFFIC_GOODS, stock);
                ProgressBar bar = new ProgressBar("traffic", v.trafficFirst());
                HttpLoad.run(
                        LoadSpec.closed(
                                        gatewayPort,
                                        WARM_TRAFFIC_GOODS,
                                        v.trafficFirst(),
                                        concurrency,
                                        users,
                                        7,
                                        bearer)
                                .buyers(20_000_001, users),
                        bar::update);
                bar.finish(v.trafficFirst());
            }
            Sales.open(s, SALE_GOODS, stock);
            ProgressBar bar = new ProgressBar("sale", requests);
            SaleLatency.Progress progress = new SaleLatency.Progress(bar::update);
            // no JIT quiet before the clock: the point is what the JIT has not done yet
            HttpLoad.Result r = HttpLoad.run(
                    LoadSpec.closed(gatewayPort, SALE_GOODS, requests, concurrency, users, 3, bearer), progress);
            bar.finish(requests);
            String warmups = (gateway.readyLine() + " | " + stream.readyLine()).replaceAll("^ \\| $", "");
            return new Outcome(v, gatewayReady, streamReady, warmups, SaleLatency.of(r, progress, concurrency));
        }
    }
}
