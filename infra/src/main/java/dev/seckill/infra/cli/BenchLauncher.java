package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.BenchCommands.BENCH_ANSWER;
import static dev.seckill.infra.cli.BenchCommands.BENCH_COLDSTART;
import static dev.seckill.infra.cli.BenchCommands.BENCH_DECIDE;
import static dev.seckill.infra.cli.BenchCommands.BENCH_FAIRNESS;
import static dev.seckill.infra.cli.BenchCommands.BENCH_GATEWAY;
import static dev.seckill.infra.cli.BenchCommands.BENCH_HOSTILE;
import static dev.seckill.infra.cli.BenchCommands.BENCH_HOT;
import static dev.seckill.infra.cli.BenchCommands.BENCH_ORDERS;
import static dev.seckill.infra.cli.BenchCommands.BENCH_STRATEGIES;
import static dev.seckill.infra.cli.BenchCommands.BENCH_TOKENS;

import dev.seckill.infra.bench.answer.AnswerBenchmark;
import dev.seckill.infra.bench.coldstart.ColdStartBenchmark;
import dev.seckill.infra.bench.decide.DecideBenchmark;
import dev.seckill.infra.bench.decide.HotBenchmark;
import dev.seckill.infra.bench.fairness.FairnessBenchmark;
import dev.seckill.infra.bench.gateway.GatewayBenchmark;
import dev.seckill.infra.bench.hostile.HostileBenchmark;
import dev.seckill.infra.bench.orders.OrdersBenchmark;
import dev.seckill.infra.bench.strategies.StrategiesBenchmark;
import dev.seckill.infra.bench.tokens.TokensBenchmark;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.infra.harness.stack.LocalStack;
import dev.seckill.kit.config.Settings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Runs {@code ./seckill bench <name>}: its declaration parsed ({@link BenchCommands}), the stack, the benchmark. */
final class BenchLauncher {
    private BenchLauncher() {}

    /**
     * Runs {@code ./seckill bench <name> ...}; its exit code. Every benchmark but {@code tokens} (JMH, in one JVM)
     * measures the real stack: what of it is missing is started first, as {@code up} and the demo do, and said.
     */
    static int run(Settings settings, Path home, String[] args, PrintStream out) throws Exception {
        if (args.length < 2)
            throw new Flags.UsageError("bench needs 'decide', 'hot', 'orders', 'gateway', 'coldstart', 'answer',"
                    + " 'hostile', 'strategies', 'fairness' or 'tokens'");
        return switch (args[1]) {
            case "decide" ->
                onStack(
                        settings,
                        home,
                        BENCH_DECIDE,
                        f -> {},
                        args,
                        out,
                        (f, o) -> DecideBenchmark.run(settings, f, o));
            case "hot" ->
                onStack(
                        settings,
                        home,
                        BENCH_HOT,
                        f -> HotBenchmark.refuseBadFlags(settings, f),
                        args,
                        out,
                        (f, o) -> HotBenchmark.run(settings, f, o));
            case "orders" ->
                onStack(
                        settings,
                        home,
                        BENCH_ORDERS,
                        f -> {},
                        args,
                        out,
                        (f, o) -> OrdersBenchmark.run(settings, f, o));
            case "gateway" ->
                onStack(
                        settings,
                        home,
                        BENCH_GATEWAY,
                        GatewayBenchmark::refuseBadFlags,
                        args,
                        out,
                        (f, o) -> GatewayBenchmark.run(settings, f, o));
            case "coldstart" ->
                onStack(
                        settings,
                        home,
                        BENCH_COLDSTART,
                        ColdStartBenchmark::refuseBadFlags,
                        args,
                        out,
                        (f, o) -> ColdStartBenchmark.run(settings, f, o));
            case "answer" ->
                onStack(
                        settings,
                        home,
                        BENCH_ANSWER,
                        f -> {},
                        args,
                        out,
                        (f, o) -> AnswerBenchmark.run(settings, f, o));
            case "hostile" ->
                onStack(
                        settings,
                        home,
                        BENCH_HOSTILE,
                        f -> {},
                        args,
                        out,
                        (f, o) -> HostileBenchmark.run(settings, f, o));
            case "strategies" ->
                onStack(
                        settings,
                        home,
                        BENCH_STRATEGIES,
                        f -> StrategiesBenchmark.refuseBadFlags(settings, f),
                        args,
                        out,
                        (f, o) -> StrategiesBenchmark.run(settings, f, o));
            case "fairness" ->
                onStack(
                        settings,
                        home,
                        BENCH_FAIRNESS,
                        FairnessBenchmark::refuseBadFlags,
                        args,
                        out,
                        (f, o) -> FairnessBenchmark.run(settings, f, o));
            case "tokens" -> run(BENCH_TOKENS, args, out, TokensBenchmark::run);
            default -> throw new Flags.UsageError("unknown benchmark '" + args[1] + "'");
        };
    }

    /** A benchmark's body: its exit code, its report and figures written to {@code o}. */
    private interface Body {
        int run(Flags f, ReportOutput o) throws Exception;
    }

    /** Parses the command line, runs the benchmark and, with {@code --json}, prints its document on stdout. */
    private static int run(CliCommand command, String[] args, PrintStream out, Body body) throws Exception {
        Flags f = command.parse(args);
        ReportOutput o = ReportOutput.of(command.words().substring("bench ".length()), f, out, System.err);
        return o.run(() -> body.run(f, o));
    }

    /**
     * {@link #run(CliCommand, String[], PrintStream, Body)} on the local stack, started where it is missing — after
     * {@code refuse} has checked the flags the benchmark reads by name, so that a bad value is one line before anything
     * starts.
     */
    private static int onStack(
            Settings settings,
            Path home,
            CliCommand command,
            Consumer<Flags> refuse,
            String[] args,
            PrintStream out,
            Body body)
            throws Exception {
        return run(command, args, out, (f, o) -> {
            refuse.accept(f);
            new LocalStack(settings, home, o.text()).up();
            return body.run(f, o);
        });
    }
}
