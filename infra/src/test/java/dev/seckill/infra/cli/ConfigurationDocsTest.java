package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.SettingFamily;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md and docs/cli.md (made by {@code ./seckill docs}), and {@code ./seckill help}, list exactly the
 * settings the code reads and the flags each command accepts: a setting or flag added without running {@code
 * ./seckill docs} fails here; the README stays a quickstart.
 */
@Tag("fast")
class ConfigurationDocsTest {
    /** Surefire runs in the module's directory. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern DECLARATION =
            Pattern.compile("Setting\\.(?:text|integer|number|flag)\\(\\s*\"([^\"]+)\"");
    private static final Pattern FAMILY = Pattern.compile("SettingFamily\\.of\\(\\s*\"([^\"]+)\"");
    private static final Pattern GETENV = Pattern.compile("getenv\\(\"(SECKILL_[A-Z0-9_]+)\"\\)");
    private static final Pattern SCRIPT_VAR = Pattern.compile("\\$\\{?(SECKILL_[A-Z0-9_]+)");
    /** In logback.xml: a substitution, ${SECKILL_X:-default}, or a condition's key, <key>SECKILL_X</key>. */
    private static final Pattern LOGBACK_VAR = Pattern.compile("(?:\\$\\{|<key>)(SECKILL_[A-Z0-9_]+)");

    private static final Path LOGBACK = ROOT.resolve("service-kit/src/main/resources/logback.xml");

    @Test
    void theReferenceDocsAreWhatTheCodeDeclares() throws IOException {
        assertThat(Files.readString(ROOT.resolve(ReferenceDocs.CLI)))
                .as(ReferenceDocs.CLI + " differs from the code's declarations: run ./seckill docs")
                .isEqualTo(ReferenceDocs.cli());
        assertThat(Files.readString(ROOT.resolve(ReferenceDocs.CONFIGURATION)))
                .as(ReferenceDocs.CONFIGURATION + " differs from the code's declarations: run ./seckill docs")
                .isEqualTo(ReferenceDocs.configuration());
    }

    @Test
    void theConfigurationReferenceListsExactlyTheSettingsTheCodeReads() throws IOException {
        Map<String, String> documented = readmeRows(configurationDoc());
        Map<String, String> expected = expectedRows();
        assertThat(documented).as("configuration rows").isNotEmpty();
        assertThat(new TreeSet<>(documented.keySet()))
                .as(ReferenceDocs.CONFIGURATION + " lists exactly these variables; expected tables:\n"
                        + expectedTables())
                .isEqualTo(new TreeSet<>(expected.keySet()));
        expected.forEach((env, def) -> assertThat(documented.get(env))
                .as(ReferenceDocs.CONFIGURATION + " default of " + env)
                .isEqualTo(def));
    }

    @Test
    void theReadmeIsAQuickstart() throws IOException {
        assertThat(readme().lines().count()).as("README.md lines").isLessThanOrEqualTo(150);
        assertThat(readme()).contains(ReferenceDocs.CLI, ReferenceDocs.CONFIGURATION, "./seckill test");
    }

    @Test
    void everySettingIsDeclaredOnceAndEnumerated() throws IOException {
        List<String> names = Configuration.all().stream().map(Setting::name).toList();
        assertThat(names).as("no setting declared twice").doesNotHaveDuplicates();
        Set<String> inSources = new TreeSet<>();
        Set<String> familiesInSources = new TreeSet<>();
        Set<String> envReads = new TreeSet<>();
        for (Path file : mainSources()) {
            String src = Files.readString(file);
            collect(DECLARATION, src, inSources);
            collect(FAMILY, src, familiesInSources);
            collect(GETENV, src, envReads);
        }
        assertThat(familiesInSources).as("families declared in the sources").contains("kafka.property");
        assertThat(Configuration.families().stream().map(SettingFamily::name).toList())
                .as("every SettingFamily declared in src/main is in Configuration.groups()")
                .containsExactlyInAnyOrderElementsOf(familiesInSources);
        collect(SCRIPT_VAR, Files.readString(ROOT.resolve("seckill")), envReads);
        Set<String> logbackReads = new TreeSet<>();
        collect(LOGBACK_VAR, Files.readString(LOGBACK), logbackReads);
        assertThat(logbackReads).as("variables the services' logback.xml reads").contains("SECKILL_LOG_FORMAT");
        envReads.addAll(logbackReads);
        assertThat(inSources).as("settings declared in the sources").isNotEmpty();
        assertThat(names)
                .as("every Setting declared in src/main is in Configuration.groups()")
                .containsAll(inSources);
        assertThat(expectedRows().keySet())
                .as("every SECKILL_ variable read by getenv or the launcher is documented")
                .containsAll(envReads);
    }

    @Test
    void helpListsEveryCommandWithItsFlagsAndEverySetting() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertThat(Seckill.run(new String[] {"help"}, new PrintStream(bytes, true, StandardCharsets.UTF_8)))
                .isZero();
        String help = bytes.toString(StandardCharsets.UTF_8);
        for (CliCommand c : CliCommands.all()) {
            assertThat(help).as("help shows " + c.words()).contains("  " + c.usage());
            c.flagNames().forEach(f -> assertThat(c.usage()).contains("--" + f));
        }
        expectedRows()
                .keySet()
                .forEach(env -> assertThat(help)
                        .as("help lists " + env)
                        .containsPattern("(?<![A-Z0-9_])" + Pattern.quote(env) + "(?![A-Z0-9_])"));
    }

    @Test
    void theCommandReferenceListsEachCommandsFlags() throws IOException {
        List<String> segments = new ArrayList<>();
        for (String line : Files.readString(ROOT.resolve(ReferenceDocs.CLI)).split("\n")) {
            if (!line.startsWith("| `")) continue;
            Matcher m = Pattern.compile("`([^`]+)`").matcher(line.split("(?<!\\\\)\\|")[1]);
            while (m.find()) segments.add(m.group(1).replace("\\|", "|"));
        }
        for (CliCommand c : CliCommands.all()) {
            // a row of a longer command ("replay list") is not a row of its first word's ("replay")
            List<String> longer = CliCommands.all().stream()
                    .map(CliCommand::words)
                    .filter(w -> w.startsWith(c.words() + " "))
                    .toList();
            List<String> rows = segments.stream()
                    .filter(s -> (s.equals(c.words()) || s.startsWith(c.words() + " "))
                            && longer.stream().noneMatch(w -> s.equals(w) || s.startsWith(w + " ")))
                    .toList();
            assertThat(rows)
                    .as(ReferenceDocs.CLI + " has one row for '" + c.words() + "'; expected: `" + c.usage() + "`")
                    .hasSize(1);
            Set<String> flags = new TreeSet<>();
            collect(Pattern.compile("--([a-z][a-z-]*)"), rows.get(0), flags);
            assertThat(flags)
                    .as("flags of '" + c.words() + "' in " + ReferenceDocs.CLI)
                    .isEqualTo(new TreeSet<>(c.flagNames()));
        }
    }

    /** env → default as the README writes it (backticks dropped; "empty" for the empty text). */
    private static Map<String, String> expectedRows() {
        Map<String, String> rows = new LinkedHashMap<>();
        Configuration.all().forEach(s -> rows.put(s.env(), shown(s.documentedDefault())));
        Configuration.families().forEach(f -> rows.put(f.env(), shown("")));
        Configuration.logging().forEach(e -> rows.put(e.env(), shown(e.documentedDefault())));
        Configuration.envOnly().forEach(e -> rows.put(e.env(), shown(e.documentedDefault())));
        return rows;
    }

    private static String shown(String documentedDefault) {
        return documentedDefault.isEmpty() ? "empty" : documentedDefault;
    }

    /** The tables the README should have, to copy when this test fails. */
    private static String expectedTables() {
        StringBuilder b = new StringBuilder();
        for (Configuration.Group g : Configuration.groups()) {
            b.append("\n").append(g.name()).append("\n\n| variable | default | what it sets |\n|---|---|---|\n");
            g.settings().forEach(s -> b.append(row(s.env(), s.documentedDefault(), s.description())));
            g.families().forEach(f -> b.append(row(f.env(), "", f.description())));
        }
        b.append("\nlogs\n\n| variable | default | what it sets |\n|---|---|---|\n");
        Configuration.logging().forEach(e -> b.append(row(e.env(), e.documentedDefault(), e.description())));
        b.append("\nlauncher, tests\n\n| variable | default | what it sets |\n|---|---|---|\n");
        Configuration.envOnly().forEach(e -> b.append(row(e.env(), e.documentedDefault(), e.description())));
        return b.toString();
    }

    private static String row(String env, String def, String description) {
        String shown =
                def.isEmpty() ? "empty" : def.matches("[A-Za-z0-9 ,.-]*\\s[A-Za-z0-9 ,.-]*") ? def : "`" + def + "`";
        return "| `" + env + "` | " + shown + " | " + description.replace("|", "\\|") + " |\n";
    }

    private static Map<String, String> readmeRows(String section) {
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : section.split("\n")) {
            if (!line.startsWith("| `SECKILL_")) continue;
            String[] cells = line.split("(?<!\\\\)\\|");
            rows.put(cells[1].trim().replace("`", ""), cells[2].trim().replace("`", ""));
        }
        return rows;
    }

    private static String configurationDoc() throws IOException {
        return Files.readString(ROOT.resolve(ReferenceDocs.CONFIGURATION));
    }

    private static String readme() throws IOException {
        return Files.readString(ROOT.resolve("README.md"));
    }

    private static List<Path> mainSources() throws IOException {
        return CodeShapeTest.mainSources();
    }

    private static void collect(Pattern p, String text, Set<String> into) {
        Matcher m = p.matcher(text);
        while (m.find()) into.add(m.group(1));
    }
}
