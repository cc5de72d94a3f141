package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.CliCommand.Option.flag;
import static dev.seckill.infra.cli.CliCommand.Option.value;

import dev.seckill.infra.bench.AnswerBenchmark;
import dev.seckill.infra.bench.ColdStartBenchmark;
import dev.seckill.infra.bench.DecideBenchmark;
import dev.seckill.infra.bench.FairnessBenchmark;
import dev.seckill.infra.bench.GatewayBenchmark;
import dev.seckill.infra.bench.HostileBenchmark;
import dev.seckill.infra.bench.HotBenchmark;
import dev.seckill.infra.bench.OrdersBenchmark;
import dev.seckill.infra.bench.strategies.StrategiesBenchmark;
import dev.seckill.infra.bench.tokens.TokensBenchmark;
import dev.seckill.infra.harness.Flags;
import dev.seckill.kit.config.Settings;
import java.io.PrintStream;

/** The {@code bench} commands' declarations (see {@link CliCommands}: every command declared once). */
public final class BenchCommands {
    private BenchCommands() {}

    /** Runs {@code ./seckill bench <name> ...}; its exit code. */
    static int run(Settings settings, String[] args, PrintStream out) throws Exception {
        if (args.length < 2)
            throw new Flags.UsageError("bench needs 'decide', 'hot', 'orders', 'gateway', 'coldstart', 'answer',"
                    + " 'hostile', 'strategies', 'fairness' or 'tokens'");
        return switch (args[1]) {
            case "decide" -> DecideBenchmark.run(settings, BenchCommands.BENCH_DECIDE.parse(args), out);
            case "hot" -> HotBenchmark.run(settings, BenchCommands.BENCH_HOT.parse(args), out);
            case "orders" -> OrdersBenchmark.run(settings, BenchCommands.BENCH_ORDERS.parse(args), out);
            case "gateway" -> GatewayBenchmark.run(settings, BenchCommands.BENCH_GATEWAY.parse(args), out);
            case "coldstart" -> ColdStartBenchmark.run(settings, BenchCommands.BENCH_COLDSTART.parse(args), out);
            case "answer" -> AnswerBenchmark.run(settings, BenchCommands.BENCH_ANSWER.parse(args), out);
            case "hostile" -> HostileBenchmark.run(settings, BenchCommands.BENCH_HOSTILE.parse(args), out);
            case "strategies" -> StrategiesBenchmark.run(settings, BenchCommands.BENCH_STRATEGIES.parse(args), out);
            case "fairness" -> FairnessBenchmark.run(settings, BenchCommands.BENCH_FAIRNESS.parse(args), out);
            case "tokens" -> TokensBenchmark.run(BenchCommands.BENCH_TOKENS.parse(args), out);
            default -> throw new Flags.UsageError("unknown benchmark '" + args[1] + "'");
        };
    }

    public static final CliCommand BENCH_DECIDE = CliCommand.of(
            "bench decide",
            "stock-stream decisions/s next to raw Lua ops/s, for the sale as given and with every purchase through Lua",
            value("commands", "N"),
            value("goods", "N"),
            value("stock", "N"),
            value("threads", "N"),
            value("commit-ms", "N"),
            value("raw", "N"),
            value("warmup", "N"),
            value("lua-commands", "N"),
            flag("trace"));
    public static final CliCommand BENCH_HOT = CliCommand.of(
            "bench hot",
            "one goods, every purchase through Lua, decided in 1, 2 and 4 buckets: decisions/s next to raw pipelined Lua",
            value("commands", "N"),
            value("buckets", "N,N,..."),
            value("threads", "N"),
            value("warmup", "N"));
    public static final CliCommand BENCH_ORDERS = CliCommand.of(
            "bench orders",
            "order-writer orders/s next to raw single-row and batched INSERT rows/s",
            value("orders", "N"),
            value("batch", "N"),
            value("raw-single", "N"),
            value("warmup", "N"));
    public static final CliCommand BENCH_GATEWAY = CliCommand.of(
            "bench gateway",
            "accepted/s and accept latency p50/p99/p99.9 with a real broker",
            value("requests", "N"),
            value("concurrency", "N"),
            value("warmup", "N"),
            value("rate", "R"),
            flag("closed-only"),
            flag("request-ids"),
            value("generator", "raw|jvm"),
            value("settle-rounds", "N"),
            value("token", "hs256|rs256|both"),
            flag("trace"));
    public static final CliCommand BENCH_COLDSTART = CliCommand.of(
            "bench coldstart",
            "accept latency in a sale's first second on freshly started services: warm-up off, on, and warmed by traffic",
            value("requests", "N"),
            value("concurrency", "N"),
            value("stock", "N"),
            value("users", "N"),
            value("warm-traffic", "N"),
            value("gateway-warmup", "N"),
            value("stream-warmup", "N"),
            value("variants", "cold,warm-up,warmed"));
    public static final CliCommand BENCH_STRATEGIES = CliCommand.of(
            "bench strategies",
            "the write-up's deduct strategies side by side on one sale (pessimistic lock, optimistic lock, synchronous Redis+Lua, this pipeline), then each SIGKILLed mid-sale",
            value("stock", "N"),
            value("requests", "N"),
            value("concurrency", "N"),
            value("users", "N"),
            value("seed", "N"),
            value("warmup", "N"),
            value("strategies", "pessimistic,optimistic,sync,pipeline"),
            value("buckets", "N"),
            flag("no-fault"),
            value("html", "FILE"));
    public static final CliCommand BENCH_ANSWER = CliCommand.of(
            "bench answer",
            "time to answer (Prefer: wait) through the whole pipeline per commit interval, next to accept latency and decisions/s",
            value("commit-intervals", "20,50,100"),
            value("rate", "R"),
            value("seconds", "N"),
            value("sequential", "N"),
            value("requests", "N"),
            value("concurrency", "N"),
            value("warmup", "N"),
            value("decide", "N"),
            value("poll-ms", "N"),
            value("caught-up-ms", "N"));
    public static final CliCommand BENCH_HOSTILE = CliCommand.of(
            "bench hostile",
            "a sale alone, then the same sale beside a hostile flood (accounts posting made-up goods at their rate limit,"
                    + " connections of unauthenticated GETs of random ids): buyers' time to answer, accepted purchases"
                    + " answered 404, claims lost, Redis growth per million hostile requests, oversold",
            value("buyers", "N"),
            value("stock", "N"),
            value("hostile-accounts", "N"),
            value("get-connections", "N"),
            value("seconds", "N"),
            value("report", "FILE"));

    public static final CliCommand BENCH_FAIRNESS = CliCommand.of(
            "bench fairness",
            "who wins the opening: two equal groups one --delay-ms farther, then bots with many requestIds against people,"
                    + " each sale first come first served and as a lottery; each group's share and P(split | fair draw)",
            value("buyers", "N"),
            value("units", "N"),
            value("delay-ms", "N"),
            value("bots", "N"),
            value("bot-requests", "N"),
            value("window-ms", "N"),
            value("allowance-ms", "N"));

    public static final CliCommand BENCH_TOKENS = CliCommand.of(
            "bench tokens",
            "what a buyer token costs the gateway (JMH, RS256 and ES256 against a JWKS): verified before, a new forged"
                    + " token (a full check), the same forged token again (refused from memory)",
            value("seconds", "N"),
            value("warmup", "N"),
            value("forks", "N"));
}
