package dev.seckill.infra.cli;

import dev.seckill.infra.acl.AclsCommand;
import dev.seckill.infra.bench.AnswerBenchmark;
import dev.seckill.infra.bench.ColdStartBenchmark;
import dev.seckill.infra.bench.DecideBenchmark;
import dev.seckill.infra.bench.GatewayBenchmark;
import dev.seckill.infra.bench.HostileBenchmark;
import dev.seckill.infra.bench.OrdersBenchmark;
import dev.seckill.infra.chaos.ChaosCommand;
import dev.seckill.infra.drill.Namespaces;
import dev.seckill.infra.sql.SqlCommand;
import dev.seckill.infra.stack.LocalStack;
import dev.seckill.infra.stack.ServiceStack;
import dev.seckill.infra.strategies.StrategiesBenchmark;
import dev.seckill.kit.config.BadSetting;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.Unreachable;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.order.db.Database;
import dev.seckill.reconcile.Reconciler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/** The operator's and analyst's command line behind {@code ./seckill}. */
public final class Seckill {
    static final String USAGE = CliCommands.usage();

    private Seckill() {}

    public static void main(String[] args) {
        // the CLI's stdout is its output (tables, reports, progress): its own log lines stay text in its log file even
        // where SECKILL_LOG_FORMAT=json is exported for the services; a -DSECKILL_LOG_FORMAT still wins. Set before
        // the first logger (logback reads a JVM property before the environment variable).
        if (System.getProperty("SECKILL_LOG_FORMAT") == null) System.setProperty("SECKILL_LOG_FORMAT", "text");
        System.exit(run(args, System.out));
    }

    public static int run(String[] args, PrintStream out) {
        return run(Settings.fromEnvironment(), args, out);
    }

    /** As {@link #run(String[], PrintStream)} with the settings given (tests point it at their own stack). */
    static int run(Settings settings, String[] args, PrintStream out) {
        Path home = Path.of(settings.get(ToolSettings.HOME));
        if (args.length == 0) {
            out.println(USAGE);
            return 2;
        }
        try {
            switch (args[0]) {
                case "up" -> {
                    Flags f = CliCommands.UP.parse(args);
                    new LocalStack(settings, home, out).up((int) f.getCount("brokers", 1));
                    if (f.has("services") || f.has("monitoring"))
                        new ServiceStack(settings, home, out).up(f.has("monitoring"));
                }
                case "down" -> {
                    new ServiceStack(settings, home, out).down();
                    new LocalStack(settings, home, out).down(Arrays.asList(args).contains("--wipe"));
                }
                case "status" -> {
                    boolean stack = new LocalStack(settings, home, out).status();
                    return stack & new ServiceStack(settings, home, out).status() ? 0 : 1;
                }
                case "demo" -> {
                    return DemoCommand.run(settings, new LocalStack(settings, home, out), args, out);
                }
                case "sale" -> {
                    return SaleCommand.run(settings, args, out);
                }
                case "bench" -> {
                    if (args.length < 2)
                        throw new Flags.UsageError(
                                "bench needs 'decide', 'orders', 'gateway', 'coldstart', 'answer', 'hostile' or 'strategies'");
                    return switch (args[1]) {
                        case "decide" -> DecideBenchmark.run(settings, args, out);
                        case "orders" -> OrdersBenchmark.run(settings, args, out);
                        case "gateway" -> GatewayBenchmark.run(settings, args, out);
                        case "coldstart" -> ColdStartBenchmark.run(settings, args, out);
                        case "answer" -> AnswerBenchmark.run(settings, args, out);
                        case "hostile" -> HostileBenchmark.run(settings, args, out);
                        case "strategies" -> StrategiesBenchmark.run(settings, args, out);
                        default -> throw new Flags.UsageError("unknown benchmark '" + args[1] + "'");
                    };
                }
                case "chaos" -> {
                    return ChaosCommand.run(settings, args, out);
                }
                case "reconcile" -> {
                    return reconcile(settings, args, out);
                }
                case "report" -> {
                    return ReportCommand.run(settings, args, out);
                }
                case "sql" -> {
                    return SqlCommand.run(
                            settings, args, f -> NamespaceCommands.chosen(settings, f), System.in, out, System.err);
                }
                case "load" -> {
                    return LoadCommand.run(settings, args, out);
                }
                case "replay" -> {
                    return ReplayCommand.run(settings, args, out);
                }
                case "namespaces" -> {
                    return NamespaceCommands.list(settings, args, out);
                }
                case "acls" -> {
                    return AclsCommand.run(settings, args, out);
                }
                case "clean" -> {
                    return NamespaceCommands.clean(settings, args, out);
                }
                case "help", "--help", "-h" -> out.println(USAGE);
                default -> {
                    System.err.println("seckill: unknown command '" + args[0] + "'\n" + USAGE);
                    return 2;
                }
            }
            return 0;
        } catch (Unreachable | BadSetting | Flags.UsageError | Namespaces.NoSuchNamespace e) {
            System.err.println("seckill: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            System.err.println("seckill " + args[0] + " failed: " + e.getMessage());
            return 1;
        }
    }

    private static int reconcile(Settings settings, String[] args, PrintStream out) throws Exception {
        Flags f = CliCommands.RECONCILE.parse(args);
        Long goods = f.has("goods") ? f.getLong("goods", 0) : null;
        KafkaClients.require(settings, "run ./seckill up");
        settings = NamespaceCommands.chosen(settings, f);
        try (UnifiedJedis redis = RedisConnections.open(settings);
                var db = Database.open(settings, "reconcile");
                var producer = ReliableProducers.create(settings);
                Reconciler reconciler =
                        new Reconciler(settings, db, redis, producer, new SimpleMeterRegistry(), !f.has("repair"))) {
            List<Reconciler.Row> rows = reconciler.cycle(goods);
            out.print(Reconciler.render(rows));
            if (rows.isEmpty()) out.println("(no goods in " + settings.topicPrefix() + "ledger)");
            if (!f.has("repair")) out.println("(dry run: nothing repaired; --repair to act)");
            return rows.stream().allMatch(r -> r.verdict().equals("OK")) ? 0 : 1;
        }
    }
}
