package dev.seckill.infra.bench;

import dev.seckill.contracts.TopicProvisioner;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.config.Settings;
import dev.seckill.gateway.GatewayApp;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.cli.Flags;
import dev.seckill.infra.cli.ProgressBar;
import dev.seckill.infra.drill.LoadGenerator;
import dev.seckill.infra.drill.Namespace;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code ./seckill bench gateway}: the write-up's experiment (500 concurrent clients, 50,000 requests) against the
 * gateway alone with a real broker: every request is verified (HS256), validated, rate-limited and acknowledged by
 * Kafka (acks=all) before its 202. Printed next to the write-up's own figures.
 */
public final class GatewayBenchmark {
    private GatewayBenchmark() {}

    static void report(PrintStream out, LoadGenerator.Result r) {
        out.printf("  HTTP status      %s, transport errors %d%n", r.byStatus(), r.errors());
        out.printf("  accepted         %,d in %.1f s = %,.0f accepted/s%n", r.acceptedIds().size(), r.elapsedNanos() / 1e9, r.acceptedPerSecond());
        out.printf("  accept latency   p50 %.1f ms   p99 %.1f ms   p99.9 %.1f ms%n", r.percentileMillis(50), r.percentileMillis(99),
                r.percentileMillis(99.9));
    }

    public static int run(Settings base, String[] args, PrintStream out) throws Exception {
        Flags f = new Flags(args, 2, Set.of("requests", "concurrency", "warmup", "rate"), Set.of("closed-only"));
        int requests = (int) f.getLong("requests", 50_000);
        int concurrency = (int) f.getLong("concurrency", 500);
        int warmup = (int) f.getLong("warmup", 100_000);
        double rate = f.has("closed-only") ? 0 : f.getLong("rate", 15_000);
        String name = "bench-gw-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        String secret = UUID.randomUUID() + "-" + UUID.randomUUID();
        Settings s = Namespace.create(base, name).settings().and(Map.of("gateway.port", "0", "gateway.auth.secret", secret));
        TopicProvisioner.ensure(s.kafkaBootstrap(), new Topics(s.topicPrefix()), TopicProvisioner.DEFAULT_PARTITIONS);
        Jwt jwt = new Jwt(secret, Clock.systemUTC());
        Instant exp = Instant.now().plusSeconds(3600);
        out.printf("bench gateway: %,d requests from %d concurrent clients (after %,d warm-up), auth on, acks=all, namespace %s%n",
                requests, concurrency, warmup, name);
        try (GatewayApp gateway = new GatewayApp(s, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start()) {
            ProgressBar warm = new ProgressBar(out, "warm-up", warmup);
            LoadGenerator.run(gateway.port(), 1_000_001, warmup, concurrency, Math.max(1, warmup / 2), 1,
                    u -> "Bearer " + jwt.mint(u, exp), warm::update);
            warm.finish(warmup);
            ProgressBar bar = new ProgressBar(out, "requests", requests);
            LoadGenerator.Result r = LoadGenerator.run(gateway.port(), 1001, requests, concurrency, Math.max(1, requests / 2), 2,
                    u -> "Bearer " + jwt.mint(u, exp), bar::update);
            bar.finish(requests);
            // the open loop opens its own connections and warms its own client: its first 3 seconds are not counted
            // (wrk2 likewise leaves out a calibration period)
            int settle = (int) (rate * 3);
            ProgressBar paced = new ProgressBar(out, "at rate", settle + requests);
            LoadGenerator.Result o = rate <= 0 ? null : LoadGenerator.run(gateway.port(), 2001, settle + requests, concurrency,
                    Math.max(1, (settle + requests) / 2), 3, u -> "Bearer " + jwt.mint(u, exp), paced::update, rate);
            if (o != null) paced.finish(settle + requests);
            out.printf("%n== bench gateway ==%n");
            out.printf("closed loop        %d clients, each sends its next request when the last is answered (the write-up's JMeter run)%n", concurrency);
            report(out, r);
            if (o != null) {
                out.printf("open loop          %,.0f requests/s offered over %d connections, latency from when each request was due%n",
                        rate, concurrency);
                out.printf("  HTTP status      %s, transport errors %d%n", o.byStatus(), o.errors());
                out.printf("  accepted         %,d in %.1f s = %,.0f accepted/s (the first 3 s included)%n", o.acceptedIds().size(),
                        o.elapsedNanos() / 1e9, o.acceptedPerSecond());
                out.printf("  accept latency   p50 %.1f ms   p99 %.1f ms   p99.9 %.1f ms (the %,d requests after the first 3 s)%n",
                        o.percentileMillis(50, settle), o.percentileMillis(99, settle), o.percentileMillis(99.9, settle), requests);
            }
            out.printf("the write-up       avg 38 ms, p99 95 ms (4 cores, JMeter, Redis+Lua in the request path)%n");
            out.printf("load generator     in this JVM (Vert.x core HTTP client, requests prepared beforehand), sharing the 2 cores with%n"
                    + "                   the gateway and the broker%n");
        }
        return 0;
    }
}
