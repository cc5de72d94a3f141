package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.CliCommand.Option.flag;
import static dev.seckill.infra.cli.CliCommand.Option.value;

/** The {@code bench} commands' declarations (see {@link CliCommands}: every command declared once). */
public final class BenchCommands {
    private BenchCommands() {}

    public static final CliCommand BENCH_DECIDE = CliCommand.of(
            "bench decide",
            "stock-stream decisions/s next to raw Lua ops/s, for the sale as given and with every purchase through Lua",
            value("commands", "N", "1000000"),
            value("goods", "N", "1"),
            value("stock", "N", "1000"),
            value("threads", "N", "2"),
            value("commit-ms", "N").whenAbsent("the configured SECKILL_STREAM_COMMIT_INTERVAL_MS"),
            value("raw", "N", "200000"),
            value("warmup", "N", "300000"),
            value("lua-commands", "N", "300000"),
            flag("trace"),
            CliCommands.JSON);
    public static final CliCommand BENCH_HOT = CliCommand.of(
            "bench hot",
            "one goods, every purchase through Lua, decided in 1, 2 and 4 buckets: decisions/s next to raw pipelined Lua",
            value("commands", "N", "200000"),
            value("buckets", "N,N,...", "1,2,4"),
            value("routes", "own,claim,home", "own,claim"),
            value("threads", "N", "2"),
            value("warmup", "N", "100000"),
            CliCommands.JSON);
    public static final CliCommand BENCH_ORDERS = CliCommand.of(
            "bench orders",
            "order-writer orders/s next to raw single-row and batched INSERT rows/s",
            value("orders", "N", "100000"),
            value("batch", "N").whenAbsent("the configured SECKILL_WRITER_BATCH_MAX"),
            value("raw-single", "N", "5000"),
            value("warmup", "N", "100000"),
            CliCommands.JSON);
    public static final CliCommand BENCH_GATEWAY = CliCommand.of(
            "bench gateway",
            "accepted/s and accept latency p50/p99/p99.9 with a real broker",
            value("requests", "N", "50000"),
            value("concurrency", "N", "500"),
            value("warmup", "N", "100000"),
            value("rate", "R", "15000"),
            flag("closed-only"),
            flag("request-ids"),
            value("generator", "raw|jvm", "raw"),
            value("settle-rounds", "N").whenAbsent("10 (rounds of 50000 more requests, stopping once the JIT settles)"),
            value("token", "hs256|rs256|both", "hs256"),
            flag("trace"),
            CliCommands.JSON);
    public static final CliCommand BENCH_COLDSTART = CliCommand.of(
            "bench coldstart",
            "accept latency in a sale's first second on freshly started services: warm-up off, on, and warmed by traffic",
            value("requests", "N", "50000"),
            value("concurrency", "N", "500"),
            value("stock", "N", "1000"),
            value("users", "N").whenAbsent("--requests / 2 (at least 1)"),
            value("warm-traffic", "N", "50000"),
            value("gateway-warmup", "N").whenAbsent("the configured SECKILL_GATEWAY_WARMUP_REQUESTS"),
            value("stream-warmup", "N").whenAbsent("the configured SECKILL_STREAM_WARMUP_COMMANDS"),
            value("variants", "cold,warm-up,warmed", "cold,warm-up,warmed"),
            CliCommands.JSON);
    public static final CliCommand BENCH_STRATEGIES = CliCommand.of(
            "bench strategies",
            "the write-up's deduct strategies side by side on one sale (pessimistic lock, optimistic lock, synchronous Redis+Lua, this pipeline), then each SIGKILLed mid-sale",
            value("stock", "N", "1000"),
            value("requests", "N", "50000"),
            value("concurrency", "N", "500"),
            value("users", "N", "25000"),
            value("seed", "N", "7"),
            value("warmup", "N").whenAbsent("--requests (0: none)"),
            value("strategies", "pessimistic,optimistic,sync,pipeline").whenAbsent("all four"),
            value("buckets", "N", "1"),
            flag("no-fault"),
            value("html", "FILE").whenAbsent(".seckill/reports/strategies-<time>.html"),
            CliCommands.JSON);
    public static final CliCommand BENCH_ANSWER = CliCommand.of(
            "bench answer",
            "time to answer (Prefer: wait) through the whole pipeline per commit interval, next to accept latency and decisions/s",
            value("commit-intervals", "20,50,100", "20,50,100"),
            value("rate", "R", "2000"),
            value("seconds", "N", "30"),
            value("sequential", "N", "200"),
            value("requests", "N", "50000"),
            value("concurrency", "N", "500"),
            value("warmup", "N", "30000"),
            value("decide", "N", "300000"),
            value("poll-ms", "N").whenAbsent("the configured SECKILL_STREAM_POLL_MS"),
            value("caught-up-ms", "N").whenAbsent("the configured SECKILL_STREAM_CAUGHT_UP_COMMIT_MS"),
            CliCommands.JSON);
    public static final CliCommand BENCH_HOSTILE = CliCommand.of(
            "bench hostile",
            "a sale alone, then the same sale beside a hostile flood (accounts posting made-up goods at their rate limit,"
                    + " connections of unauthenticated GETs of random ids): buyers' time to answer, accepted purchases"
                    + " answered 404, claims lost, Redis growth per million hostile requests, oversold",
            value("buyers", "N", "500"),
            value("stock", "N", "1000"),
            value("hostile-accounts", "N", "100"),
            value("get-connections", "N", "400"),
            value("seconds", "N", "0"),
            value("report", "FILE").whenAbsent(".seckill/reports/hostile-<time>.txt"),
            CliCommands.JSON);

    public static final CliCommand BENCH_FAIRNESS = CliCommand.of(
            "bench fairness",
            "who wins the opening: two equal groups one --delay-ms farther, then bots with many requestIds against people,"
                    + " each sale first come first served and as a lottery; each group's share and P(split | fair draw)",
            value("buyers", "N", "2500"),
            value("units", "N", "1000"),
            value("delay-ms", "N", "50"),
            value("bots", "N", "100"),
            value("bot-requests", "N", "20"),
            value("window-ms", "N", "2000"),
            value("allowance-ms", "N", "500"),
            CliCommands.JSON);

    public static final CliCommand BENCH_TOKENS = CliCommand.of(
            "bench tokens",
            "what a buyer token costs the gateway (JMH, RS256 and ES256 against a JWKS): verified before, a new forged"
                    + " token (a full check), the same forged token again (refused from memory)",
            value("seconds", "N", "5"),
            value("warmup", "N", "3"),
            value("forks", "N", "1"),
            CliCommands.JSON);
}
