package dev.seckill.infra.ops;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.UpstreamLoad;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * {@code ./seckill load --via kafka|http --requests N --rate R --goods G[,G...] --users U --repeat-ratio X}: what an
 * upstream service does, with a progress bar and a summary.
 */
public final class LoadCommand {
    private LoadCommand() {}

    public static int run(Settings base, Flags f, PrintStream out) throws Exception {
        String via = f.get("via", "kafka");
        if (!via.equals("kafka") && !via.equals("http"))
            throw new Flags.UsageError("--via is kafka or http, not '" + via + "'");
        Settings settings = NamespaceCommands.chosen(base, f);
        double repeat = f.getDouble("repeat-ratio", 0);
        if (repeat < 0 || repeat >= 1) throw new Flags.UsageError("--repeat-ratio is a share in [0, 1)");
        List<Long> goods = Arrays.stream(f.get("goods", "1001").split(","))
                .map(String::trim)
                .map(Long::parseLong)
                .toList();
        UpstreamLoad.Spec spec = new UpstreamLoad.Spec(
                (int) f.getCount("requests", 10_000),
                (int) f.getCount("rate", 1_000),
                goods,
                (int) f.getCount("users", 5_000),
                repeat,
                f.getLong("seed", 7),
                (int) f.getCount("in-flight", 500));
        List<Purchase> plan =
                UpstreamLoad.plan(spec, "load-" + UUID.randomUUID().toString().substring(0, 8) + "-", Instant.now());
        ProgressBar bar = new ProgressBar("load", spec.requests());
        UpstreamLoad.Result r;
        if (via.equals("kafka")) {
            KafkaClients.require(settings, "run ./seckill up");
            r = UpstreamLoad.viaKafka(settings, new Topics(settings.topicPrefix()), plan, spec, bar::update);
        } else {
            String url = f.get(
                    "url", "http://" + settings.get(GatewaySettings.HOST) + ":" + settings.get(GatewaySettings.PORT));
            Jwt jwt = settings.get(GatewaySettings.AUTH_ENABLED)
                            && !settings.get(GatewaySettings.AUTH_SECRET).isEmpty()
                    ? new Jwt(settings.get(GatewaySettings.AUTH_SECRET), Clock.systemUTC())
                    : null;
            Instant expires = Instant.now().plusSeconds(3600);
            r = UpstreamLoad.viaHttp(
                    url, jwt == null ? null : user -> jwt.mint(user, expires), plan, spec, bar::update);
        }
        bar.finish(r.sent());
        out.printf(
                "sent %,d purchases (%,d distinct requestIds, %,d re-sent) via %s to %s* in %.1f s: %,.0f/s (asked %,d/s)%n",
                r.sent(),
                r.distinctRequestIds(),
                r.sent() - r.distinctRequestIds(),
                via,
                settings.topicPrefix(),
                r.took().toMillis() / 1000.0,
                r.ratePerSecond(),
                spec.rate());
        out.println("answers    " + r.byStatus());
        out.printf(
                "latency    p50 %.1f ms  p99 %.1f ms  max %.1f ms (%s, from each request's scheduled time)%n",
                r.latencyQuantileMicros(0.5) / 1000.0,
                r.latencyQuantileMicros(0.99) / 1000.0,
                r.latencyQuantileMicros(1.0) / 1000.0,
                via.equals("kafka") ? "until acks=all" : "until the HTTP answer");
        out.println(
                "outcomes:  ./seckill report" + (f.has("namespace") ? " --namespace " + f.get("namespace", "") : ""));
        return r.byStatus().keySet().stream().anyMatch(k -> k.startsWith("failed")) ? 1 : 0;
    }
}
