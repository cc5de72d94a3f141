package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.infra.harness.Flags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A flag's default is declared once, on its {@link CliCommand.Option}, where help and docs/cli.md show it: the command
 * reads it without a fallback of its own ({@code f.getLong("requests")}), a read with one of a flag that declares a
 * default is a programming error, and no source passes a literal default a declaration should show. An optional flag
 * without one says what its absence means ({@code whenAbsent}), shown there too.
 */
@Tag("fast")
class FlagDefaultsTest {
    static final Path SOURCES = Path.of("src", "main", "java");
    /** A read with a literal fallback: {@code f.getLong("requests", 50_000)}, {@code f.get("via", "kafka")}. */
    static final Pattern LITERAL_FALLBACK = Pattern.compile(
            "\\b\\w+\\.(get|getLong|getCount|getDouble)\\(\"([a-z-]+)\", (-?[0-9][0-9_.]*|\"[^\"]+\")\\)");

    @Test
    void helpShowsEachDeclaredDefault_andTheReadGivesIt() {
        assertThat(CliHelp.help(BenchCommands.BENCH_DECIDE))
                .contains("defaults: --commands 1000000, --goods 1, --stock 1000");
        Flags none = BenchCommands.BENCH_DECIDE.parse(new String[] {"bench", "decide"});
        assertThat(none.getLong("commands")).isEqualTo(1_000_000);
        Flags given = BenchCommands.BENCH_DECIDE.parse(new String[] {"bench", "decide", "--commands", "5"});
        assertThat(given.getLong("commands")).isEqualTo(5);
    }

    @Test
    void aDefaultReadTwice_orNotDeclared_isAProgrammingError() {
        Flags f = BenchCommands.BENCH_DECIDE.parse(new String[] {"bench", "decide"});
        assertThatThrownBy(() -> f.getLong("commands", 7))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--commands declares its default (1000000)");
        assertThatThrownBy(() -> f.get("commit-ms"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--commit-ms declares no default");
    }

    @Test
    void everyDeclaredDefaultIsAValueItsFlagAccepts() {
        for (CliCommand c : CliCommands.all())
            for (CliCommand.Option o : c.options()) {
                if (o.defaultValue() == null) continue;
                List<String> args = new ArrayList<>(List.of(c.words().split(" ")));
                args.add("--" + o.name());
                args.add(o.defaultValue());
                Flags f = c.parse(args.toArray(String[]::new)); // a usage error here: a default its flag refuses
                assertThat(f.get(o.name())).as(c.words() + " --" + o.name()).isEqualTo(o.defaultValue());
            }
    }

    @Test
    void everyOptionalValueFlagSaysWhatItIsWhenAbsent_andHelpShowsIt() {
        List<String> silent = new ArrayList<>();
        for (CliCommand c : CliCommands.all())
            for (CliCommand.Option o : c.options())
                if (!o.required() && o.placeholder() != null && o.defaultValue() == null && o.whenAbsent() == null)
                    silent.add(c.words() + " --" + o.name());
        assertThat(silent)
                .as("declare a default, or .whenAbsent(...) saying what the command does without the flag")
                .isEmpty();
        assertThat(CliHelp.help(BenchCommands.BENCH_COLDSTART))
                .contains("\nwhen absent:\n  --users: --requests / 2 (at least 1)\n");
        assertThat(ReferenceDocs.cli()).contains("(when absent: --users: --requests / 2 (at least 1); ");
        assertThatThrownBy(() -> CliCommand.Option.value("users", "N", "7").whenAbsent("--requests / 2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--users declares a default (7)");
    }

    @Test
    void noSourceReadsAFlagWithALiteralDefaultOfItsOwn() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = LITERAL_FALLBACK.matcher(lines.get(i));
                    while (m.find()) {
                        String name = m.group(2);
                        // a read only once the flag is given: its fallback is never used
                        String before = String.join("\n", lines.subList(Math.max(0, i - 3), i + 1));
                        if (!before.contains("has(\"" + name + "\")"))
                            found.add(SOURCES.relativize(file) + ":" + (i + 1) + " " + m.group());
                    }
                }
            }
        }
        assertThat(found)
                .as("declare the default on the flag's Option (CliCommands, BenchCommands) and read it without one")
                .isEmpty();
    }
}
