package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.CliCommand.Option.flag;
import static dev.seckill.infra.cli.CliCommand.Option.value;

import java.util.List;

/** Commands the launcher script runs itself, outside the CLI's JVM (listed by {@link CliCommands#all()}). */
final class LauncherCommands {
    private LauncherCommands() {}

    static final CliCommand IMAGES = new CliCommand(
            "images",
            "",
            List.of(
                    value("base", "debian|public").whenAbsent("debian (bases made here with mmdebstrap)"),
                    value("only", "NAME,...").whenAbsent("all of them")),
            "the images of the four services and of Kafka, Redis and MariaDB (the launcher runs deploy/images/build.sh)");
    static final CliCommand SECRETS = new CliCommand(
            "secrets",
            "",
            List.of(value("dir", "DIR").whenAbsent("deploy/secrets")),
            "random "
                    + "secrets for deploy/compose.yaml, one file each (the launcher writes them; existing ones kept)");
    static final CliCommand MUTATION = new CliCommand(
            "mutation",
            "",
            List.of(),
            "mutation testing (PIT) of the decision code: stock-stream decision/, order-writer store/, the gateway's Door, by"
                    + " their fast"
                    + " tests, on the running stack; reports in <module>/target/pit-reports (docs/quality.md)");
    static final CliCommand RUN = new CliCommand(
            "run",
            "<service>",
            List.of(),
            "one service in the foreground: stock-stream | order-writer | gateway | reconciler");
    static final CliCommand TEST = CliCommand.of(
            "test",
            "the whole test suite (the launcher runs Maven); --fast: only the tests that need no server",
            flag("fast"));
}
