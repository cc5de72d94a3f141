package dev.seckill.infra.cli;

import dev.seckill.infra.ops.deploy.OperatorManifests;
import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.SettingFamily;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * docs/cli.md and docs/configuration.md, made from the code's declarations ({@link CliCommands}, {@link
 * Configuration}), and the production overlay's Strimzi resources and PrometheusRule ({@link OperatorManifests}):
 * {@code ./seckill docs} writes them and {@code ReferenceDocsTest} fails when a file differs from what
 * the code declares. The prose around the tables is here too, so that a file is never edited by hand.
 */
public final class ReferenceDocs {
    public static final String CLI = "docs/cli.md";
    public static final String CONFIGURATION = "docs/configuration.md";

    private static final String MADE =
            "<!-- made by ./seckill docs from the code's declarations: edit those, then run it -->";

    /** Each reader's heading and, where it needs one, the paragraph before its table. */
    private static final Map<String, String[]> GROUPS = Map.of(
            "shared",
            new String[] {"Shared (more than one service reads them; `SharedSettings`)", ""},
            "kafka clients",
            new String[] {
                "Kafka clients (every service and tool; `KafkaSettings`)",
                "Every producer, consumer, Streams app and admin client is configured in one place (`KafkaClients`,"
                        + " service-kit): the bootstrap above, then the config file, the `SECKILL_KAFKA_PROPERTY_*`"
                        + " pass-through and the settings below, each winning over the one before. A setting that cannot"
                        + " work (an unknown protocol, a store that is missing or does not open) stops a service or command"
                        + " with one line and exit code 2. [operations.md](operations.md#kafka-security) shows a SASL_SSL"
                        + " cluster, a managed one and the ACLs."
            },
            "redis clients",
            new String[] {
                "Redis clients (every service and tool; `RedisSettings`)",
                "An ACL user, its password and TLS; a `rediss://user:password@host` URL works too (not both). The users"
                        + " and their rights: `deploy/redis-users.sh`, [security.md](security.md), \"Redis\"."
            },
            "ingress-gateway",
            new String[] {"ingress-gateway (`GatewaySettings`)", ""},
            "stock-stream",
            new String[] {"stock-stream (`StockStreamSettings`)", ""},
            "order-writer",
            new String[] {"order-writer (`OrderWriterSettings`)", ""},
            "reconciler",
            new String[] {"reconciler (`ReconcilerSettings`)", ""},
            "warm-up",
            new String[] {
                "Warm-up before ready (`WarmupSettings`; read by the services' `main`)",
                "Each service warms itself on a topic and Redis namespace of its own, deleted afterwards; `/health`"
                        + " answers 503 `warming` until then; `0` turns a warm-up off. Why and how:"
                        + " [decisions.md](decisions.md), \"Warm-up before ready\"."
            },
            "tools",
            new String[] {"The CLI, demo and drills (`ToolSettings`)", ""});

    private ReferenceDocs() {}

    /** The command reference: every command with its flags and what it does. */
    public static String cli() {
        StringBuilder b =
                new StringBuilder("# The command line\n\n").append(MADE).append("\n\n");
        b.append(
                "`./seckill <command>`; `./seckill <command> --help` (or `./seckill help <command>`) prints one command's"
                        + " flags with their defaults (or, for an optional flag without one, what it means when absent), `./seckill help` all of them, `./seckill --version` the version. A usage error (an unknown flag,"
                        + " a bad number) is one line and exit code 2. Progress bars go to stderr, and only when it is a"
                        + " terminal; `--json` on the reporting commands prints one JSON document on stdout (their notes go to"
                        + " stderr). A missing server is one line, not a stack trace: `seckill: Kafka is not reachable at"
                        + " 127.0.0.1:19092 (run ./seckill up)`.\n\n");
        b.append("| command | what it does |\n|---|---|\n");
        for (CliCommand c : CliCommands.all())
            b.append("| `")
                    .append(cell(c.usage()))
                    .append("` | ")
                    .append(prose(c.summary()))
                    .append(c.defaults().isEmpty() ? "" : " (defaults: " + cell(c.defaults()) + ")")
                    .append(
                            c.whenAbsent().isEmpty()
                                    ? ""
                                    : " (when absent: " + prose(String.join("; ", c.whenAbsent())) + ")")
                    .append(" |\n");
        return b.toString();
    }

    /** The configuration reference: every setting, by who reads it, with its default and what it sets. */
    public static String configuration() {
        StringBuilder b = new StringBuilder("# Configuration\n\n").append(MADE).append("\n\n");
        b.append(
                "Every setting is an environment variable `SECKILL_X_Y` or a JVM property `-Dseckill.x.y=…` (the property"
                        + " wins), with local defaults; each is declared once in the code (a `Setting`: name, default,"
                        + " description). The services read theirs once at start. Secrets (`SECKILL_GATEWAY_AUTH_SECRET`,"
                        + " `SECKILL_GATEWAY_PAYMENT_SECRET`, `SECKILL_GATEWAY_ID_SECRET`, `SECKILL_DB_PASSWORD`) may also be"
                        + " read from a file: `<VARIABLE>_FILE` names it (a mounted Kubernetes or compose secret); a service"
                        + " refuses a placeholder (`change-me...`) or, for the gateway's keys, a value with less than 128 bits of"
                        + " randomness, with one line naming the variable ([security.md](security.md), \"Secrets\").\n");
        for (Configuration.Group g : Configuration.groups()) {
            String[] heading = GROUPS.getOrDefault(g.name(), new String[] {g.name(), ""});
            b.append("\n## ").append(heading[0]).append("\n\n");
            if (!heading[1].isEmpty()) b.append(heading[1]).append("\n\n");
            header(b);
            for (Setting<?> s : g.settings()) row(b, s.env(), s.documentedDefault(), s.description());
            for (SettingFamily f : g.families()) row(b, f.env(), "", f.description());
        }
        b.append("\n## Logs (the services' `logback.xml`, in service-kit; environment, or a JVM property of the same"
                + " name)\n\nWhat a line holds and how to read them: [operations.md](operations.md), \"Logs\".\n\n");
        header(b);
        Configuration.logging().forEach(e -> row(b, e.env(), e.documentedDefault(), e.description()));
        b.append("\n## Read only by the launcher script or the tests (environment only)\n\n");
        header(b);
        Configuration.envOnly().forEach(e -> row(b, e.env(), e.documentedDefault(), e.description()));
        return b.toString();
    }

    /**
     * Writes the reference docs, the production overlay's generated resources ({@link OperatorManifests}) and the
     * results tables ({@link ResultTables}) under {@code root}; says which changed.
     */
    static int write(Path root, PrintStream out) throws IOException {
        for (Map.Entry<String, String> doc : new TreeMap<>(Map.of(
                        CLI,
                        cli(),
                        CONFIGURATION,
                        configuration(),
                        OperatorManifests.STRIMZI,
                        OperatorManifests.strimzi(),
                        OperatorManifests.RULES,
                        OperatorManifests.prometheusRule(root)))
                .entrySet()) {
            Path file = root.resolve(doc.getKey());
            boolean same = Files.exists(file) && Files.readString(file).equals(doc.getValue());
            if (!same) Files.writeString(file, doc.getValue());
            out.println(doc.getKey() + (same ? " unchanged" : " written"));
        }
        for (String name : ResultTables.DOCS) { // their tables made from the commands' --json documents
            Path file = root.resolve(name);
            String now = Files.readString(file);
            String made = ResultTables.render(now, root);
            if (!made.equals(now)) Files.writeString(file, made);
            out.println(
                    name + (made.equals(now) ? " unchanged" : " written") + " (tables from " + ResultTables.DIR + ")");
        }
        return 0;
    }

    private static void header(StringBuilder b) {
        b.append("| variable | default | what it sets |\n|---|---|---|\n");
    }

    private static void row(StringBuilder b, String env, String def, String description) {
        b.append("| `")
                .append(env)
                .append("` | ")
                .append(def.isEmpty() ? "empty" : "`" + cell(def) + "`")
                .append(" | ")
                .append(prose(description))
                .append(" |\n");
    }

    /** A table cell of prose: its {@code <placeholders>} shown, not taken for HTML. */
    private static String prose(String text) {
        return cell(text).replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
