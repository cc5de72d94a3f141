package dev.seckill.infra.cli;

import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.limit.RefusalBudget;
import dev.seckill.gateway.readside.DrawWindowsBackfill;
import dev.seckill.infra.harness.ToolSettings;
import dev.seckill.kit.config.JitChoice;
import dev.seckill.kit.config.KafkaSettings;
import dev.seckill.kit.config.RedisSettings;
import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.SettingFamily;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.config.WarmupSettings;
import dev.seckill.order.OrderWriterSettings;
import dev.seckill.reconcile.ReconcilerSettings;
import dev.seckill.stock.StockStreamSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every setting the code reads, by who reads it: the declarations of each module, and the few environment variables only
 * the launcher or the test fixtures read. {@code ./seckill help} lists them from here and {@code ./seckill docs} writes
 * docs/configuration.md from here, and a test holds the file to it.
 */
public final class Configuration {
    private Configuration() {}

    /** The settings of one reader, and the families of settings it reads (named by whoever sets them). */
    public record Group(String name, List<Setting<?>> settings, List<SettingFamily> families) {
        Group(String name, List<Setting<?>> settings) {
            this(name, settings, List.of());
        }
    }

    /**
     * An environment variable read outside {@link dev.seckill.kit.config.Settings} (no {@code -Dseckill.x.y} property;
     * those of {@link #logging()} may also be a JVM property of the same name, as logback reads them).
     */
    public record EnvOnly(String env, String documentedDefault, String description) {}

    public static List<Group> groups() {
        return List.of(
                new Group("shared", SharedSettings.all()),
                new Group("kafka clients", KafkaSettings.all(), KafkaSettings.families()),
                new Group("redis clients", RedisSettings.all()),
                new Group(
                        "ingress-gateway",
                        Stream.of(GatewaySettings.all(), RefusalBudget.all(), DrawWindowsBackfill.all())
                                .flatMap(List::stream)
                                .toList()),
                new Group("stock-stream", StockStreamSettings.all()),
                new Group("order-writer", OrderWriterSettings.all()),
                new Group("reconciler", ReconcilerSettings.all()),
                new Group("warm-up", WarmupSettings.all()),
                new Group("tools", ToolSettings.all()));
    }

    /** Read by the {@code seckill} launcher script or the test fixtures, not by the services. */
    public static List<EnvOnly> envOnly() {
        return List.of(
                new EnvOnly(
                        "SECKILL_JAVA_OPTS",
                        "G1, 512 MB-4 GB heap",
                        "the launcher's JVM options, replacing its defaults"),
                new EnvOnly(
                        JitChoice.ENV,
                        "tiered",
                        "c1: the JVMs ./seckill run, the CLI and the tools' service launchers start compile with C1 only (./seckill test sets it: a third less CPU over a short life)"),
                new EnvOnly(
                        "SECKILL_USE_DOCKER", "", "false: the tests' Kafka fixture never starts a broker in Docker"),
                new EnvOnly(
                        "SECKILL_CDS",
                        "on",
                        "off: ./seckill run neither maps nor writes a class-data archive (.seckill/cds, written at a service's clean stop, mapped by its later starts of the same build)"),
                new EnvOnly(
                        "SECKILL_NO_BUILD",
                        "",
                        "set: ./seckill runs every command from the tree as built, never building first (the tools that start services set it)"),
                new EnvOnly(
                        "SECKILL_TEST_LANES",
                        "SECKILL_TEST_HEAVY + 2",
                        "how many of the suite's jobs ./seckill test runs at a time (a module's tests, each in a Maven of its own)"),
                new EnvOnly(
                        "SECKILL_TEST_HEAVY",
                        "half the cores, at least 1",
                        "how many of those may be heavy at once (infra's and system-tests': whole pipelines, chaos processes and their time bounds)"),
                new EnvOnly(
                        "SECKILL_IMAGE_TAG",
                        "0.1.0",
                        "the tag of the images ./seckill images builds (seckill/<name>:<tag>) and the container test runs"));
    }

    /** Read by the services' logback.xml (in service-kit): environment variables or JVM properties of that name. */
    public static List<EnvOnly> logging() {
        return List.of(
                new EnvOnly(
                        "SECKILL_LOG_FORMAT",
                        "text",
                        "text: every line to the log file, errors also on stderr; json: one JSON object per line on"
                                + " stdout (Logback's JsonEncoder, the traceId in mdc), no file; any other value is text."
                                + " The CLI stays text unless given -DSECKILL_LOG_FORMAT"),
                new EnvOnly(
                        "SECKILL_LOG_LEVEL",
                        "INFO",
                        "the root level: TRACE, DEBUG, INFO, WARN, ERROR or OFF (a word logback does not know: DEBUG);"
                                + " Kafka (SECKILL_KAFKA_LOG_LEVEL), Netty, HikariCP and Flyway stay at WARN"),
                new EnvOnly(
                        "SECKILL_KAFKA_LOG_LEVEL",
                        "WARN",
                        "the Kafka clients' and Kafka Streams' level; INFO shows a failover's timeline (the group's"
                                + " rebalances, each task's restore, each stream thread's state), read beside the"
                                + " chaos run's SIGKILL times (docs/reliability.md)"),
                new EnvOnly(
                        "SECKILL_LOG_FILE",
                        "<SECKILL_HOME>/logs/seckill.log",
                        "text: the file every line goes to (the tools that start a service set it to that service's"
                                + " own log)"));
    }

    /** Every family of settings, e.g. {@code SECKILL_KAFKA_PROPERTY_<NAME>}. */
    public static List<SettingFamily> families() {
        List<SettingFamily> all = new ArrayList<>();
        groups().forEach(g -> all.addAll(g.families()));
        return all;
    }

    public static List<Setting<?>> all() {
        List<Setting<?>> all = new ArrayList<>();
        groups().forEach(g -> all.addAll(g.settings()));
        return all;
    }

    /** The configuration part of the usage text: each reader's variables, wrapped. */
    static String usage() {
        StringBuilder b = new StringBuilder("configuration (environment, or JVM properties -Dseckill.x.y; defaults and "
                + "meanings in docs/configuration.md):");
        for (Group g : groups()) {
            List<String> names = g.settings().stream().map(Setting::env).collect(Collectors.toList());
            g.families().forEach(f -> names.add(f.env()));
            line(b, g.name(), names);
        }
        line(b, "logs", logging().stream().map(EnvOnly::env).collect(Collectors.toList()));
        line(b, "launcher, tests", envOnly().stream().map(EnvOnly::env).collect(Collectors.toList()));
        return b.toString();
    }

    private static void line(StringBuilder b, String group, List<String> names) {
        String indent = " ".repeat(20);
        StringBuilder row = new StringBuilder("\n  " + group + " ".repeat(Math.max(1, 18 - group.length())));
        int width = row.length() - 1;
        for (int i = 0; i < names.size(); i++) {
            String item = names.get(i) + (i < names.size() - 1 ? "," : "");
            if (width + item.length() + 1 > 118 && width > indent.length()) {
                row.append('\n').append(indent);
                width = indent.length();
            } else if (width > indent.length()) {
                row.append(' ');
                width++;
            }
            row.append(item);
            width += item.length();
        }
        b.append(row);
    }
}
