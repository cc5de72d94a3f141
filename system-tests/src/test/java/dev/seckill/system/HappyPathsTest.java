package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.cli.Seckill;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Nothing but the user's work in what they read: each command's happy path, run as the CLI runs it against a live
 * pipeline of its own, exits 0 and prints no stack trace — on stdout or stderr, from the command or from a library it
 * closes (a Vert.x pool refusing work after the table was printed was one; a gateway's Redis ping ending after its event
 * loops, at the demo's exit, another). The long-running commands (chaos, most benchmarks) are walked by their own
 * tests; those here are the ones that once printed a trace or are quick.
 */
class HappyPathsTest {
    /** A Java stack frame or the first line of an uncaught exception's trace. */
    static final Pattern STACK_TRACE =
            Pattern.compile("(?m)^\\s+at [\\w.$/]+\\(|^Exception in thread|^Caused by: |^[\\w.$]+(Exception|Error): ");

    record Run(String command, int exit, String out, String err) {}

    @Test
    void everyCommandsHappyPathExitsZeroWithoutAStackTrace() throws Exception {
        Settings base = TestNamespaces.inProcess(2);
        Namespace ns = TestNamespaces.create(
                base, "happy-" + UUID.randomUUID().toString().substring(0, 6));
        long goods = 5701;
        List<Run> runs = new ArrayList<>();
        try (Pipeline p = new Pipeline(ns).start()) {
            Settings s = ns.settings();
            runs.add(run(s, "sale", "open", "--goods", Long.toString(goods), "--stock", "3", "--minutes", "30"));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> "3".equals(p.redis().get(p.keys().stock(goods))));
            for (int user = 1; user <= 5; user++) p.send(new Purchase("happy-" + user, goods, user, 1, Instant.now()));
            runs.add(run(
                    s,
                    "load",
                    "--via",
                    "kafka",
                    "--requests",
                    "200",
                    "--rate",
                    "400",
                    "--goods",
                    Long.toString(goods),
                    "--users",
                    "50"));
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            "3".equals(p.queryOne("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ?", goods)));
            // a gateway's own HS256 secret, as an operator exports it (./seckill run makes one for the local stack)
            String secret = UUID.randomUUID().toString() + UUID.randomUUID();
            runs.add(run(s.and(Map.of(GatewaySettings.AUTH_SECRET.name(), secret)), "token", "--user", "7"));
            runs.add(run(s, "report", "--goods", Long.toString(goods)));
            runs.add(run(s, "report", "--goods", Long.toString(goods), "--json"));
            runs.add(run(s, "sql", "SELECT outcome, COUNT(*) FROM outcomes GROUP BY outcome"));
            runs.add(run(s, "reconcile", "--goods", Long.toString(goods)));
            runs.add(run(s, "dlq", "list"));
            runs.add(run(s, "replay", "list"));
            runs.add(run(s, "namespaces"));
            runs.add(run(s, "acls"));
            // the reporting commands' --json: one document on stdout
            runs.add(run(s, "reconcile", "--goods", Long.toString(goods), "--json"));
            runs.add(run(s, "dlq", "list", "--json"));
            runs.add(run(s, "replay", "list", "--json"));
            runs.add(run(s, "namespaces", "--json"));
            runs.add(run(
                    s,
                    "load",
                    "--via",
                    "kafka",
                    "--requests",
                    "50",
                    "--rate",
                    "200",
                    "--goods",
                    Long.toString(goods),
                    "--users",
                    "20",
                    "--json"));
            runs.add(run(s, "status"));
            runs.add(run(s, "status", "--json"));
            runs.add(run(s, "sale", "close", "--goods", Long.toString(goods)));
            runs.add(run(
                    base,
                    "bench",
                    "fairness",
                    "--buyers",
                    "40",
                    "--units",
                    "10",
                    "--bots",
                    "2",
                    "--bot-requests",
                    "5"));
            runs.add(run(
                    base,
                    "bench",
                    "decide",
                    "--commands",
                    "400",
                    "--warmup",
                    "0",
                    "--lua-commands",
                    "400",
                    "--raw",
                    "400"));
            runs.add(run(
                    base,
                    "bench",
                    "orders",
                    "--orders",
                    "300",
                    "--batch",
                    "100",
                    "--raw-single",
                    "100",
                    "--warmup",
                    "0"));
            // the demo, small: its own namespace, kept for the report it names, removed here
            Run demo = run(
                    base,
                    "demo",
                    "--requests",
                    "1000",
                    "--concurrency",
                    "20",
                    "--stock",
                    "50",
                    "--warmup",
                    "0",
                    "--answer",
                    "200",
                    "--json");
            runs.add(demo);
            String demoNamespace = dev.seckill.contracts.Json.MAPPER
                    .readTree(demo.out())
                    .path("namespace")
                    .asText("");
            if (!demoNamespace.isEmpty()) {
                new Namespaces(base).clean(demoNamespace);
                java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(
                        base.get(dev.seckill.infra.harness.ToolSettings.HOME), "reports", demoNamespace + ".html"));
            }
        } finally {
            new Namespaces(base).clean(ns.name());
        }
        assertThat(runs).hasSize(23);
        for (Run r : runs) {
            if (r.command().contains("--json"))
                assertThat(dev.seckill.contracts.Json.MAPPER.readTree(r.out()))
                        .as(r.command() + " prints one JSON document:\n" + r.out())
                        .isNotNull();
            assertThat(r.exit()).as(r.command() + " exit; stderr:\n" + r.err()).isZero();
            assertThat(STACK_TRACE.matcher(r.err()).find())
                    .as(r.command() + " printed a stack trace on stderr:\n" + r.err())
                    .isFalse();
            assertThat(STACK_TRACE.matcher(r.out()).find())
                    .as(r.command() + " printed a stack trace on stdout:\n" + r.out())
                    .isFalse();
        }
    }

    @Test
    void theCheckFindsATrace_soItCanFail() {
        String trace = "something failed\njava.lang.IllegalStateException: boom\n\tat dev.seckill.X.y(X.java:12)\n";
        assertThat(STACK_TRACE.matcher(trace).find()).isTrue();
        assertThat(STACK_TRACE.matcher("goods 5701  SUCCESS 3  SOLD_OUT 202\n").find())
                .isFalse();
    }

    /** One command as the CLI runs it, stdout and stderr (the logs' console too) captured. */
    static Run run(Settings settings, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Seckill.run(settings, args, new PrintStream(out, true, StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
        }
        return new Run(
                String.join(" ", args),
                exit,
                out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
    }
}
