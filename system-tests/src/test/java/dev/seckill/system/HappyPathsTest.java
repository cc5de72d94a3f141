package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.cli.Seckill;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** A reader of exactly one JSON document: anything after it fails the read. */
    static final ObjectReader ONE_DOCUMENT = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @TempDir
    Path dir;

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
            runs.add(run(s, "acls", "--json"));
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
            // a letter the stream cannot read, then the operator's dead-letter commands on it
            try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(s)) {
                producer.send(new ProducerRecord<>(
                                p.topics().commands(),
                                Long.toString(goods),
                                "{\"type\":\"purchase\",oops".getBytes(StandardCharsets.UTF_8)))
                        .get(30, TimeUnit.SECONDS);
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> run(s, "dlq", "list", "--json").out().contains("\"at\""));
            String at = Json.MAPPER
                    .readTree(run(s, "dlq", "list", "--json").out())
                    .findValue("at")
                    .asText();
            runs.add(run(s, "dlq", "show", "--at", at));
            runs.add(run(s, "dlq", "resend", "--at", at));
            runs.add(run(
                    s,
                    "report",
                    "--goods",
                    Long.toString(goods),
                    "--html",
                    dir.resolve("report.html").toString()));
            runs.add(run(s, "sql", "--export", dir.resolve("parquet").toString()));
            // a replay drill of the namespace's window, then its removal
            String drill = "happy" + UUID.randomUUID().toString().substring(0, 6);
            runs.add(run(s, "replay", "--as", drill, "--json"));
            runs.add(run(s, "replay", "clean", "--as", drill));
            runs.add(run(s, "sale", "close", "--goods", Long.toString(goods), "--json"));
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
            // read off its first line on stderr, so it is removed even when stdout is not the one document it should be
            Matcher named = Pattern.compile("namespace\\s+(demo-[0-9-]+)").matcher(demo.err());
            if (named.find()) {
                String demoNamespace = named.group(1);
                new Namespaces(base).clean(demoNamespace);
                java.nio.file.Files.deleteIfExists(Path.of(
                        base.get(dev.seckill.infra.harness.ToolSettings.HOME), "reports", demoNamespace + ".html"));
            }
        } finally {
            new Namespaces(base).clean(ns.name());
        }
        assertThat(runs).hasSize(30);
        for (Run r : runs) {
            if (r.command().contains("--json"))
                assertThat(oneDocument(r)).as(r.command()).isTrue();
            // a command that says why it failed on stdout (a verdict, a table) is read from its last lines
            String outTail = r.out().substring(Math.max(0, r.out().length() - 3_000));
            assertThat(r.exit())
                    .as(r.command() + " exit; stderr:\n" + r.err() + "\nstdout, its end:\n" + outTail)
                    .isZero();
            assertThat(STACK_TRACE.matcher(consoleOnly(r.err())).find())
                    .as(r.command() + " printed a stack trace on stderr:\n" + r.err())
                    .isFalse();
            assertThat(STACK_TRACE.matcher(withoutTestLog(r.out())).find())
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
        // a test log event, its exception too, is not the command's stdout; a trace printed after it is
        String logged =
                "16:20:05.123 WARN  [main] d.s.X - slow\njava.lang.IllegalStateException: x\n\tat a.B.c(B.java:1)\n";
        assertThat(withoutTestLog(logged + "{\"a\":1}\n")).isEqualTo("{\"a\":1}\n");
        assertThat(STACK_TRACE.matcher(withoutTestLog(logged + trace)).find()).isTrue();
        // on stderr a WARN's trace is the log file's (the CLI's console shows ERROR and above), an ERROR's is not
        String warned = "22:35:36.991 WARN  [StreamThread-2] o.a.k.s.p.i.StreamThread - fenced\n"
                + "org.apache.kafka.streams.errors.TaskMigratedException: fenced\n"
                + "\tat org.apache.kafka.streams.processor.internals.StreamsProducer.commit(StreamsProducer.java:252)\n"
                + "Caused by: org.apache.kafka.clients.consumer.CommitFailedException: not a member\n"
                + "\tat org.apache.kafka.clients.producer.internals.Sender.run(Sender.java:247)\n";
        assertThat(STACK_TRACE.matcher(consoleOnly(warned + "sale opened\n")).find())
                .isFalse();
        String failed = warned.replace(" WARN  ", " ERROR ");
        assertThat(STACK_TRACE.matcher(consoleOnly(failed)).find()).isTrue();
    }

    /**
     * Whether {@code r}'s stdout is exactly one JSON document, but for this module's log lines (logback-test.xml logs
     * to stdout; the CLI's own logback.xml sends its console to stderr).
     */
    static boolean oneDocument(Run r) {
        try {
            return ONE_DOCUMENT.readTree(withoutTestLog(r.out())) != null;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(
                    r.command() + " does not print one JSON document (" + e.getOriginalMessage() + "):\n" + r.out());
        }
    }

    /**
     * A log event of this module's test pattern ({@code HH:mm:ss.SSS LEVEL [thread] logger - message}) with the
     * exception lines logback prints under it.
     */
    static final Pattern TEST_LOG_EVENT = testLogEvents("TRACE|DEBUG|INFO |WARN |ERROR");

    /** The same, below ERROR: the CLI's console (service-kit's logback.xml) shows ERROR and above only. */
    static final Pattern TEST_LOG_EVENT_BELOW_ERROR = testLogEvents("TRACE|DEBUG|INFO |WARN ");

    private static Pattern testLogEvents(String levels) {
        return Pattern.compile(
                "(?m)^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (" + levels + ") \\[.*(\\R|$)"
                        + "((\\s+at |\\s+\\.\\.\\. \\d+ |\\s*Suppressed: |Caused by: |[\\w.$]+(Exception|Error)\\b).*(\\R|$))*");
    }

    /** {@code out} without this module's log events: what the CLI's stdout holds (its logback logs to stderr). */
    static String withoutTestLog(String out) {
        return TEST_LOG_EVENT.matcher(out).replaceAll("");
    }

    /**
     * {@code err} as the CLI's console would show it: this module's log events below ERROR removed (a Kafka client's
     * WARN with its exception — a stream thread fenced after a stall, say — goes to the CLI's log file, not its
     * console); an ERROR's trace stays, as the console would print it.
     */
    static String consoleOnly(String err) {
        return TEST_LOG_EVENT_BELOW_ERROR.matcher(err).replaceAll("");
    }

    /** One command as the CLI runs it, stdout and stderr (the logs' console too) captured. */
    static Run run(Settings settings, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        PrintStream savedOut = System.out;
        // stdout as the CLI has it: the stream the command writes to is System.out, so a stray line lands in it too
        PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        System.setOut(stdout);
        int exit;
        try {
            exit = Seckill.run(settings, args, stdout);
        } finally {
            System.setErr(savedErr);
            System.setOut(savedOut);
        }
        return new Run(
                String.join(" ", args),
                exit,
                out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
    }
}
