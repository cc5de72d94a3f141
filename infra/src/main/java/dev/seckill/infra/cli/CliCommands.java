package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.CliCommand.Option.flag;
import static dev.seckill.infra.cli.CliCommand.Option.required;
import static dev.seckill.infra.cli.CliCommand.Option.value;

import java.util.List;

/** The commands of {@code ./seckill}, each declared once with its flags; the usage text is made from them. */
public final class CliCommands {
    private CliCommands() {}

    /** {@code --json}, shared by the reporting commands; its help is {@link CliHelp#JSON}. */
    static final CliCommand.Option JSON = flag("json");

    /** {@code --namespace NAME}, shared by the commands that read or write the system's data. */
    static final CliCommand.Option NAMESPACE = value("namespace", "NAME").whenAbsent("the live namespace");

    public static final CliCommand UP = CliCommand.of(
            "up",
            "start (or find) Kafka, Redis and MySQL; say what was done; --brokers 3: a 3-node KRaft cluster (RF 3, min ISR 2);"
                    + " --services: the four services as background processes; --monitoring: and Prometheus with the alerts",
            value("brokers", "N", "1"),
            flag("services"),
            flag("monitoring"));
    public static final CliCommand DOWN = CliCommand.of(
            "down", "stop what 'up' started; --wipe also deletes the local broker's topics", flag("wipe"));
    public static final CliCommand STATUS =
            CliCommand.of("status", "each component, its address, UP or DOWN; --json: as one document", JSON);
    public static final CliCommand DEMO = CliCommand.of(
            "demo",
            "the write-up's flash sale end to end, with a report",
            value("stock", "N", "1000"),
            value("buckets", "N", "1"),
            value("requests", "N", "50000"),
            value("concurrency", "N", "500"),
            value("users", "N").whenAbsent("--requests / 2 (at least 1)"),
            value("goods", "N", "1001"),
            value("seed", "N", "7"),
            value("warmup", "N", "10000"),
            value("answer", "N").whenAbsent("--requests (0: no time-to-answer run)"),
            JSON);
    public static final CliCommand SALE_OPEN = CliCommand.of(
            "sale open",
            "an open_sale command through <prefix>commands",
            required("goods", "N"),
            required("stock", "N"),
            value("minutes", "N", "60"),
            value("limit", "N", "1"),
            value("start-in-seconds", "N").whenAbsent("0 (the sale starts now)"),
            flag("force"),
            value("fairness", "fcfs|lottery|registration", "fcfs"),
            value("window-ms", "N").whenAbsent("1000 for a lottery or registration (fcfs has none)"),
            value("buckets", "N", "1"),
            NAMESPACE,
            JSON);
    public static final CliCommand SALE_CLOSE =
            CliCommand.of("sale close", "a close_sale command", required("goods", "N"), NAMESPACE, JSON);
    public static final CliCommand DRAW_VERIFY = CliCommand.of(
            "draw verify",
            "a drawn sale's draw recomputed from the recorded topics (or a file draw export wrote) and the beacon's key"
                    + " alone: every drawn open has its DRAWN, the beacon round verifies and came after the cutoff, the"
                    + " entries give the published digest, none left out, the seed, winners and outcomes follow it (exit"
                    + " 1 naming each fault); --request ID: that purchase's inclusion proof and rank",
            value("goods", "N").whenAbsent("required unless --file"),
            NAMESPACE,
            value("file", "FILE").whenAbsent("the recorded topics of --namespace"),
            value("request", "ID").whenAbsent("none (no inclusion proof)"),
            flag("allow-create-time"),
            JSON);
    public static final CliCommand DRAW_EXPORT = CliCommand.of(
            "draw export",
            "one goods' recorded sale (its commands with their append times, ledger entries, outcomes, the beacon's"
                    + " public key) as one JSON file, for draw verify --file and infra/verify-draw/verify-draw.mjs",
            required("goods", "N"),
            NAMESPACE,
            required("out", "FILE"));
    public static final CliCommand DLQ_LIST = CliCommand.of(
            "dlq list",
            "the dead letters of <prefix>dlq, one line each (where, when, from where, why); --reason TEXT (a part of the"
                    + " error), --goods N, --minutes N (appended in the last N minutes) choose some",
            value("reason", "TEXT").whenAbsent("any error"),
            value("goods", "N").whenAbsent("any goods"),
            value("minutes", "N").whenAbsent("any age"),
            NAMESPACE,
            JSON);
    public static final CliCommand DLQ_SHOW = CliCommand.of(
            "dlq show",
            "dead letters whole, as JSON: headers and value (hex when not text); --at P@O[,P@O...] as dlq list prints",
            required("at", "P@O"),
            NAMESPACE);
    public static final CliCommand DLQ_RESEND = CliCommand.of(
            "dlq resend",
            "dead letters sent back to the input topic they came from (commands, payments), decided again by the normal"
                    + " path (a second resend changes nothing); --at P@O[,...] or the dlq list filters",
            value("at", "P@O").whenAbsent("what --reason, --goods, --minutes choose (every letter without them)"),
            value("reason", "TEXT").whenAbsent("any error"),
            value("goods", "N").whenAbsent("any goods"),
            value("minutes", "N").whenAbsent("any age"),
            NAMESPACE);
    public static final CliCommand RECONCILE = CliCommand.of(
            "reconcile",
            "ledger vs Redis vs DB, one row per goods; a dry run unless --repair",
            value("goods", "N").whenAbsent("every goods"),
            flag("repair"),
            NAMESPACE,
            JSON);
    public static final CliCommand REPORT = CliCommand.of(
            "report",
            "per goods: requests, outcomes by kind and reason, sell-out time, decision latency, orders; --html FILE adds charts;"
                    + " --json: the same figures as one JSON document on stdout; a drill namespace (or --against NAME):"
                    + " its outcomes beside the recorded ones",
            NAMESPACE,
            value("goods", "N").whenAbsent("every goods"),
            value("html", "FILE").whenAbsent("none (text only)"),
            JSON,
            value("against", "NAME").whenAbsent("the live one for a drill namespace, else no comparison"));
    public static final CliCommand SQL = new CliCommand(
            "sql",
            "[\"SELECT …\"]",
            List.of(NAMESPACE, value("export", "DIR").whenAbsent("none (no Parquet files)"), JSON),
            "the namespace's outcomes, commands, ledger and orders as DuckDB tables: the query's answer, or a prompt"
                    + " without one; --export DIR writes each table as Parquet");
    public static final CliCommand REPLAY = CliCommand.of(
            "replay",
            "copy a window of <prefix>commands into a drill namespace, decide it there, diff its outcomes with the recorded ones",
            required("as", "DRILL"),
            value("from", "T", "earliest"),
            value("to", "T", "latest"),
            value("speed", "1x|10x|max", "max"),
            value("goods", "N,...").whenAbsent("every goods in the window"),
            value("stock", "N").whenAbsent("each open_sale's recorded stock"),
            value("limit", "N").whenAbsent("each open_sale's recorded per-buyer limit"),
            NAMESPACE,
            JSON);
    public static final CliCommand REPLAY_LIST = CliCommand.of("replay list", "the drills on the stack", JSON);
    public static final CliCommand REPLAY_CLEAN = CliCommand.of(
            "replay clean",
            "remove a drill: its topics, consumer groups, Redis keys and database",
            required("as", "DRILL"));
    public static final CliCommand DOCS = CliCommand.of(
            "docs",
            "writes docs/cli.md and docs/configuration.md from the code's declarations of commands and settings");
    public static final CliCommand TOKEN = CliCommand.of(
            "token",
            "one buyer's token for the gateway, valid for an hour, printed alone (TOKEN=$(./seckill token --user 7)):"
                    + " HS256 with SECKILL_GATEWAY_AUTH_SECRET or the secret ./seckill run made, or --signing-key FILE",
            required("user", "N"),
            value("signing-key", "FILE").whenAbsent("HS256 with SECKILL_GATEWAY_AUTH_SECRET or ./seckill run's secret"),
            value("issuer", "ISS").whenAbsent("SECKILL_GATEWAY_AUTH_ISSUER (empty: no iss)"),
            value("audience", "AUD").whenAbsent("SECKILL_GATEWAY_AUTH_AUDIENCE (empty: no aud)"));
    public static final CliCommand LOAD = CliCommand.of(
            "load",
            "purchases at a fixed rate as an upstream service sends them, straight to Kafka or through the gateway (each"
                    + " buyer's token HS256 from SECKILL_GATEWAY_AUTH_SECRET, or --signing-key FILE: the identity"
                    + " provider's private JWK, RSA → RS256, EC P-256 → ES256, its kid, for a gateway on a JWKS;"
                    + " --issuer/--audience: iss/aud, by default SECKILL_GATEWAY_AUTH_ISSUER/_AUDIENCE)",
            value("via", "kafka|http", "kafka"),
            value("requests", "N", "10000"),
            value("rate", "R", "1000"),
            value("goods", "G,...", "1001"),
            value("users", "U", "5000"),
            value("repeat-ratio", "X", "0"),
            value("in-flight", "N", "500"),
            value("seed", "N", "7"),
            value("url", "URL").whenAbsent("http://SECKILL_GATEWAY_HOST:SECKILL_GATEWAY_PORT"),
            value("signing-key", "FILE").whenAbsent("HS256 with SECKILL_GATEWAY_AUTH_SECRET, if set and auth is on"),
            value("issuer", "ISS").whenAbsent("SECKILL_GATEWAY_AUTH_ISSUER (empty: no iss)"),
            value("audience", "AUD").whenAbsent("SECKILL_GATEWAY_AUTH_AUDIENCE (empty: no aud)"),
            NAMESPACE,
            JSON);
    public static final CliCommand NAMESPACES = CliCommand.of(
            "namespaces",
            "the live namespace and every demo, drill, benchmark and test run on the stack: topics, database",
            JSON);
    public static final CliCommand CLEAN = CliCommand.of(
            "clean",
            "remove one namespace: its topics, consumer groups, Redis keys and database (never the live one)",
            required("namespace", "NAME"));
    public static final CliCommand ACLS = CliCommand.of(
            "acls",
            "the pipeline's Kafka ACLs, one principal per role; --script: as deploy/kafka-acls.sh; --apply: create the"
                    + " topics and the ACLs on the configured cluster (as a super user)",
            flag("script"),
            flag("apply"),
            JSON);
    public static final CliCommand CHAOS = CliCommand.of(
            "chaos",
            "break the running pipeline mid-sale (services SIGKILLed, broker killed, Redis restarted empty, DB stopped, slow Redis/DB, poison, retries, a rebalance) and check every invariant from the outside",
            value("scenario", "NAME,...", "all"),
            value("brokers", "N", "1"),
            value("seed", "S", "42"),
            value("stock", "N", "300"),
            value("requests", "N", "8000"),
            value("concurrency", "N", "100"),
            value("users", "N", "4000"),
            value("buckets", "N", "1"),
            value("stream-instances", "N", "1"),
            value("restart-after-ms", "N", "0"),
            value("warmup", "N").whenAbsent("SECKILL_GATEWAY_WARMUP_REQUESTS and SECKILL_STREAM_WARMUP_COMMANDS"),
            JSON);

    public static List<CliCommand> all() {
        return List.of(
                UP,
                DOWN,
                STATUS,
                DEMO,
                SALE_OPEN,
                SALE_CLOSE,
                DRAW_VERIFY,
                DRAW_EXPORT,
                DLQ_LIST,
                DLQ_SHOW,
                DLQ_RESEND,
                RECONCILE,
                REPORT,
                SQL,
                LOAD,
                TOKEN,
                DOCS,
                REPLAY,
                REPLAY_LIST,
                REPLAY_CLEAN,
                NAMESPACES,
                ACLS,
                CLEAN,
                BenchCommands.BENCH_DECIDE,
                BenchCommands.BENCH_HOT,
                BenchCommands.BENCH_ORDERS,
                BenchCommands.BENCH_GATEWAY,
                BenchCommands.BENCH_COLDSTART,
                BenchCommands.BENCH_ANSWER,
                BenchCommands.BENCH_HOSTILE,
                BenchCommands.BENCH_STRATEGIES,
                BenchCommands.BENCH_FAIRNESS,
                BenchCommands.BENCH_TOKENS,
                CHAOS,
                LauncherCommands.RUN,
                LauncherCommands.IMAGES,
                LauncherCommands.SECRETS,
                LauncherCommands.MUTATION,
                LauncherCommands.TEST);
    }
}
