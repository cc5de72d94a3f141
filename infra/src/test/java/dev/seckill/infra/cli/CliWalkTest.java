package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command of {@code ./seckill}, walked as a new operator would: {@code --help} prints its flags and exits 0;
 * an unknown flag, and a word where a number goes, are one line naming the flag and exit 2 — before the command
 * touches anything (the servers here are a closed port).
 */
@Tag("fast")
class CliWalkTest {
    /** Nothing listens here: a command that reached for a server before checking its flags would fail differently. */
    static final Settings NOWHERE =
            Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, "127.0.0.1:1", Settings.REDIS_URL, "redis://127.0.0.1:1"));

    record Run(int exit, String out, String err) {}

    /**
     * Run by the launcher script itself, not by this CLI (Maven, podman, the secrets folder): their further arguments go
     * to the tool they start, as their help says.
     */
    static final Set<String> LAUNCHER = Set.of("run", "images", "secrets", "mutation", "test");

    static Stream<CliCommand> commands() {
        return CliCommands.all().stream();
    }

    static Stream<CliCommand> cliCommands() {
        return commands().filter(c -> !LAUNCHER.contains(c.words().split(" ")[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void helpPrintsItsFlags(CliCommand c) {
        Run r = run(words(c, "--help"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains(c.usage());
        for (String flag : c.flagNames()) assertThat(r.out()).contains("--" + flag);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cliCommands")
    void anUnknownFlagIsOneLineAndExitTwo(CliCommand c) {
        List<String> args = new ArrayList<>(Arrays.asList(words(c)));
        args.addAll(required(c));
        args.add("--no-such-flag");
        Run r = run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains("--no-such-flag").doesNotContain("\tat ");
    }

    static Stream<CliCommand> jsonCommands() {
        return cliCommands().filter(c -> c.flagNames().contains("json"));
    }

    /** {@code --json} is a flag like any other: with a bad one beside it, the usage error is still one line, not JSON. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jsonCommands")
    void jsonWithAnUnknownFlagIsStillOneLineAndExitTwo(CliCommand c) {
        List<String> args = new ArrayList<>(Arrays.asList(words(c)));
        args.addAll(required(c));
        args.add("--json");
        args.add("--no-such-flag");
        Run r = run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.out()).as("no document for a refused command").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cliCommands")
    void aWordWhereANumberGoesIsOneLineNamingTheFlag(CliCommand c) {
        for (CliCommand.Option o : c.options()) {
            if (!o.number()) continue;
            List<String> args = new ArrayList<>(Arrays.asList(words(c)));
            for (String part : required(c, o.name())) args.add(part);
            args.add("--" + o.name());
            args.add("many");
            Run r = run(args.toArray(String[]::new));
            assertThat(r.exit())
                    .as(String.join(" ", args) + ": " + r.out() + r.err())
                    .isEqualTo(2);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(r.err()).contains("--" + o.name()).doesNotContain("\tat ");
        }
    }

    private static String[] words(CliCommand c, String... more) {
        List<String> all = new ArrayList<>(Arrays.asList(c.words().split(" ")));
        all.addAll(Arrays.asList(more));
        return all.toArray(String[]::new);
    }

    /** The command's required flags with a value of the right kind, but {@code except}'s. */
    private static List<String> required(CliCommand c, String... except) {
        List<String> out = new ArrayList<>();
        for (CliCommand.Option o : c.options()) {
            if (!o.required() || Arrays.asList(except).contains(o.name())) continue;
            out.add("--" + o.name());
            out.add(o.number() || o.numbers() ? "1" : "x");
        }
        return out;
    }

    private static Run run(String[] args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int exit = Seckill.run(NOWHERE, args, new PrintStream(out, true, StandardCharsets.UTF_8));
            return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
        }
    }
}
