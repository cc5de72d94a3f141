package dev.seckill.infra.cli;

import dev.seckill.infra.chaos.ChaosCommand;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.ToolSettings;
import dev.seckill.infra.harness.stack.Component;
import dev.seckill.infra.harness.stack.LocalStack;
import dev.seckill.infra.harness.stack.ServiceStack;
import dev.seckill.infra.ops.DeadLetterCommand;
import dev.seckill.infra.ops.DemoCommand;
import dev.seckill.infra.ops.DrawCommand;
import dev.seckill.infra.ops.LoadCommand;
import dev.seckill.infra.ops.NamespaceCommands;
import dev.seckill.infra.ops.ReconcileCommand;
import dev.seckill.infra.ops.ReplayCommand;
import dev.seckill.infra.ops.ReportCommand;
import dev.seckill.infra.ops.SaleCommand;
import dev.seckill.infra.ops.StatusCommand;
import dev.seckill.infra.ops.TokenCommand;
import dev.seckill.infra.ops.acl.AclsCommand;
import dev.seckill.infra.ops.sql.SqlCommand;
import dev.seckill.kit.config.BadSetting;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.Unreachable;
import dev.seckill.kit.observability.OneLine;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/** The operator's and analyst's command line behind {@code ./seckill}. */
public final class Seckill {
    static final String USAGE = CliHelp.usage();

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
    public static int run(Settings settings, String[] args, PrintStream out) {
        Path home = Path.of(settings.get(ToolSettings.HOME));
        if (args.length == 0) {
            out.println(USAGE);
            return 2;
        }
        List<String> words = Arrays.asList(args);
        boolean helpAsked = args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h");
        // sql's query may hold any word: only "sql --help" alone asks for its help
        boolean sqlHelp =
                args[0].equals("sql") && args.length == 2 && (args[1].equals("--help") || args[1].equals("-h"));
        if (helpAsked || sqlHelp || (!args[0].equals("sql") && (words.contains("--help") || words.contains("-h")))) {
            List<String> named = args[0].equals("help") ? words.subList(1, args.length) : words;
            CliCommand c = CliHelp.named(named);
            List<CliCommand> group = c == null ? CliHelp.group(named) : List.of();
            if (!group.isEmpty()) {
                out.println(
                        String.join("\n\n", group.stream().map(CliHelp::help).toList()));
                return 0;
            }
            if (c == null && !named.stream().allMatch(w -> w.startsWith("-"))) {
                System.err.println("seckill: unknown command '" + String.join(" ", named) + "'\n" + USAGE);
                return 2;
            }
            out.println(c == null ? USAGE : CliHelp.help(c));
            return 0;
        }
        if (args[0].equals("--version") || args[0].equals("version")) {
            out.println("seckill " + version());
            return 0;
        }
        try {
            switch (args[0]) {
                case "up" -> {
                    Flags f = CliCommands.UP.parse(args);
                    new LocalStack(settings, home, out).up((int) f.getCount("brokers"));
                    if (f.has("services") || f.has("monitoring"))
                        new ServiceStack(settings, home, out).up(f.has("monitoring"));
                }
                case "down" -> {
                    Flags f = CliCommands.DOWN.parse(args);
                    new ServiceStack(settings, home, out).down();
                    new LocalStack(settings, home, out).down(f.has("wipe"));
                }
                case "status" -> {
                    List<Component> all = new ArrayList<>(new LocalStack(settings, home, out).components());
                    all.addAll(new ServiceStack(settings, home, out).components());
                    return StatusCommand.run(all, CliCommands.STATUS.parse(args), out);
                }
                case "demo" -> {
                    return DemoCommand.run(settings, home, CliCommands.DEMO.parse(args), out);
                }
                case "sale" -> {
                    if (args.length < 2) throw new Flags.UsageError("sale needs 'open' or 'close'");
                    return switch (args[1]) {
                        case "open" -> SaleCommand.open(settings, CliCommands.SALE_OPEN.parse(args), out);
                        case "close" -> SaleCommand.close(settings, CliCommands.SALE_CLOSE.parse(args), out);
                        default -> throw new Flags.UsageError("unknown sale command '" + args[1] + "'");
                    };
                }
                case "dlq" -> {
                    if (args.length < 2) throw new Flags.UsageError("dlq needs 'list', 'show' or 'resend'");
                    return switch (args[1]) {
                        case "list" -> DeadLetterCommand.list(settings, CliCommands.DLQ_LIST.parse(args), out);
                        case "show" -> DeadLetterCommand.show(settings, CliCommands.DLQ_SHOW.parse(args), out);
                        case "resend" -> DeadLetterCommand.resend(settings, CliCommands.DLQ_RESEND.parse(args), out);
                        default -> throw new Flags.UsageError("unknown dlq command '" + args[1] + "'");
                    };
                }
                case "draw" -> {
                    if (args.length < 2) throw new Flags.UsageError("draw needs 'verify' or 'export'");
                    return switch (args[1]) {
                        case "verify" -> DrawCommand.verify(settings, CliCommands.DRAW_VERIFY.parse(args), out);
                        case "export" -> DrawCommand.export(settings, CliCommands.DRAW_EXPORT.parse(args), out);
                        default -> throw new Flags.UsageError("unknown draw command '" + args[1] + "'");
                    };
                }
                case "bench" -> {
                    return BenchLauncher.run(settings, home, args, out);
                }
                case "chaos" -> {
                    return ChaosCommand.run(settings, CliCommands.CHAOS.parse(args), out);
                }
                case "reconcile" -> {
                    return ReconcileCommand.run(settings, CliCommands.RECONCILE.parse(args), out);
                }
                case "report" -> {
                    return ReportCommand.run(settings, CliCommands.REPORT.parse(args), out);
                }
                case "sql" -> {
                    return sql(settings, args, out);
                }
                case "docs" -> {
                    CliCommands.DOCS.parse(args);
                    return ReferenceDocs.write(Path.of("").toAbsolutePath(), out);
                }
                case "token" -> {
                    return TokenCommand.run(settings, home, CliCommands.TOKEN.parse(args), out);
                }
                case "load" -> {
                    return LoadCommand.run(settings, CliCommands.LOAD.parse(args), out);
                }
                case "replay" -> {
                    if (args.length > 1 && args[1].equals("list")) {
                        return ReplayCommand.list(settings, CliCommands.REPLAY_LIST.parse(args), out);
                    }
                    if (args.length > 1 && args[1].equals("clean"))
                        return ReplayCommand.clean(settings, CliCommands.REPLAY_CLEAN.parse(args), out);
                    return ReplayCommand.run(settings, CliCommands.REPLAY.parse(args), out);
                }
                case "namespaces" -> {
                    return NamespaceCommands.list(settings, CliCommands.NAMESPACES.parse(args), out);
                }
                case "acls" -> {
                    return AclsCommand.run(settings, CliCommands.ACLS.parse(args), out);
                }
                case "clean" -> {
                    return NamespaceCommands.clean(settings, CliCommands.CLEAN.parse(args), out);
                }
                default -> {
                    System.err.println("seckill: unknown command '" + args[0] + "'\n" + USAGE);
                    return 2;
                }
            }
            return 0;
        } catch (Unreachable | BadSetting | Flags.UsageError | Namespaces.NoSuchNamespace e) {
            System.err.println("seckill: " + OneLine.message(e));
            return 2;
        } catch (Exception e) {
            System.err.println("seckill " + args[0] + " failed: " + OneLine.message(e));
            return 1;
        }
    }

    /** {@code sql [flags] [query words]}: the flags parsed as declared, the other words joined as the query. */
    private static int sql(Settings settings, String[] args, PrintStream out) throws Exception {
        List<String> flags = new ArrayList<>(List.of("sql"));
        StringBuilder query = new StringBuilder();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--")) {
                flags.add(a);
                String name = a.substring(2);
                boolean takesValue = !name.contains("=")
                        && CliCommands.SQL.options().stream()
                                .anyMatch(o -> o.name().equals(name) && o.placeholder() != null);
                if (takesValue && i + 1 < args.length) flags.add(args[++i]);
            } else {
                if (query.length() > 0) query.append(' ');
                query.append(a);
            }
        }
        Flags f = CliCommands.SQL.parse(flags.toArray(String[]::new));
        return SqlCommand.run(
                settings, f, query.toString(), g -> NamespaceCommands.chosen(settings, g), System.in, out, System.err);
    }

    /** The project's version, as the build wrote it into the CLI's resources. */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = Seckill.class.getResourceAsStream("version.properties")) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            // no version file: say so rather than fail
        }
        return p.getProperty("version", "unknown");
    }
}
