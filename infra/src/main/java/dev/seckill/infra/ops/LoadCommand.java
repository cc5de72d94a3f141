package dev.seckill.infra.ops;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.IdentityProviderTokens;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.UpstreamLoad;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.apache.kafka.clients.admin.Admin;

/**
 * {@code ./seckill load --via kafka|http --requests N --rate R --goods G[,G...] --users U --repeat-ratio X}: what an
 * upstream service does, with a progress bar and a summary; through the gateway, each buyer with a token (HS256 from
 * the gateway's secret, or {@code --signing-key}: signed as the identity provider signs them, for a gateway on a JWKS).
 */
public final class LoadCommand {
    private LoadCommand() {}

    public static int run(Settings base, Flags f, PrintStream out) throws Exception {
        String via = f.get("via");
        if (!via.equals("kafka") && !via.equals("http"))
            throw new Flags.UsageError("--via is kafka or http, not '" + via + "'");
        for (String http : List.of("signing-key", "issuer", "audience", "url"))
            if (via.equals("kafka") && f.has(http)) throw new Flags.UsageError("--" + http + " is for --via http");
        Settings settings = NamespaceCommands.chosen(base, f);
        double repeat = f.getDouble("repeat-ratio");
        if (repeat < 0 || repeat >= 1) throw new Flags.UsageError("--repeat-ratio is a share in [0, 1)");
        List<Long> goods = Arrays.stream(f.get("goods").split(","))
                .map(String::trim)
                .map(Long::parseLong)
                .toList();
        UpstreamLoad.Spec spec = new UpstreamLoad.Spec(
                (int) f.getCount("requests"),
                (int) f.getCount("rate"),
                goods,
                (int) f.getCount("users"),
                repeat,
                f.getLong("seed"),
                (int) f.getCount("in-flight"));
        LongFunction<String> tokens = via.equals("http") ? tokens(settings, f) : null;
        List<Purchase> plan =
                UpstreamLoad.plan(spec, "load-" + UUID.randomUUID().toString().substring(0, 8) + "-", Instant.now());
        ProgressBar bar = new ProgressBar("load", spec.requests());
        UpstreamLoad.Result r;
        if (via.equals("kafka")) {
            KafkaClients.require(settings, "run ./seckill up");
            Topics topics = new Topics(settings.topicPrefix());
            requireTopic(settings, topics.commands());
            r = UpstreamLoad.viaKafka(settings, topics, plan, spec, bar::update);
        } else {
            String url = f.get(
                    "url", "http://" + settings.get(GatewaySettings.HOST) + ":" + settings.get(GatewaySettings.PORT));
            r = UpstreamLoad.viaHttp(url, tokens, plan, spec, bar::update);
        }
        bar.finish(r.sent());
        int exit = r.byStatus().keySet().stream().anyMatch(k -> k.startsWith("failed")) ? 1 : 0;
        if (f.has("json")) {
            out.println(json(settings.topicPrefix(), via, spec, r, exit));
            return exit;
        }
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
        return exit;
    }

    /**
     * The namespace's commands topic must be there: a producer would otherwise wait for it a minute per purchase (the
     * broker does not create the pipeline's topics), which looks like a hang.
     */
    static void requireTopic(Settings settings, String topic) throws Exception {
        try (Admin admin = KafkaClients.admin(settings)) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic))
                throw new Namespaces.NoSuchNamespace("no topic " + topic + " at " + settings.kafkaBootstrap()
                        + ": start the pipeline there (./seckill run) or name a namespace that has one (--namespace)");
        }
    }

    /** {@code load --json}: the text's figures as one document (latencies in ms from each request's scheduled time). */
    static String json(String namespace, String via, UpstreamLoad.Spec spec, UpstreamLoad.Result r, int exit) {
        ObjectNode doc = JsonOutput.object()
                .put("command", "load")
                .put("namespace", namespace)
                .put("via", via)
                .put("sent", r.sent())
                .put("distinctRequestIds", r.distinctRequestIds())
                .put("resent", r.sent() - r.distinctRequestIds())
                .put("seconds", r.took().toMillis() / 1000.0)
                .put("perSecond", r.ratePerSecond())
                .put("askedPerSecond", spec.rate())
                .put("latencyUntil", via.equals("kafka") ? "acks=all" : "the HTTP answer")
                .put("exit", exit);
        doc.set("answers", JsonOutput.tree(r.byStatus()));
        doc.putObject("latencyMs")
                .put("p50", r.latencyQuantileMicros(0.5) / 1000.0)
                .put("p99", r.latencyQuantileMicros(0.99) / 1000.0)
                .put("max", r.latencyQuantileMicros(1.0) / 1000.0);
        return JsonOutput.render(doc);
    }

    /**
     * Each buyer's token, valid for an hour: signed with the identity provider's private JWK of {@code --signing-key}
     * (RS256/ES256, its kid), else HS256 with the gateway's secret when its auth is on and it has one, else none;
     * {@code --issuer}/{@code --audience}, by default the gateway's settings, as iss/aud.
     */
    static LongFunction<String> tokens(Settings settings, Flags f) {
        String issuer = f.get("issuer", settings.get(GatewaySettings.AUTH_ISSUER));
        String audience = f.get("audience", settings.get(GatewaySettings.AUTH_AUDIENCE));
        Instant expires = Instant.now().plusSeconds(3600);
        if (f.has("signing-key")) {
            IdentityProviderTokens idp;
            try {
                idp = IdentityProviderTokens.fromFile(Path.of(f.get("signing-key", "")), issuer, audience);
            } catch (IllegalArgumentException e) {
                throw new Flags.UsageError("--signing-key: " + e.getMessage());
            }
            return user -> idp.mint(user, expires);
        }
        if (!settings.get(GatewaySettings.AUTH_ENABLED)
                || settings.get(GatewaySettings.AUTH_SECRET).isEmpty()) return null;
        Jwt jwt = new Jwt(
                settings.get(GatewaySettings.AUTH_SECRET),
                Clock.systemUTC(),
                new Jwt.Policy(issuer, audience, Jwt.DEFAULT_MAX_LIFETIME));
        return user -> jwt.mint(user, expires);
    }
}
