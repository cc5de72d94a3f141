package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands the {@code ./seckill} script runs itself (not the Java CLI) keep the CLI's word: {@code --help} prints
 * their usage and exits 0 without building, starting or writing anything; {@code help} and {@code --version} answer in
 * a tree not built yet, from its docs and its pom.
 */
@Tag("fast")
class ScriptHelpTest {
    record Run(int exit, String out, String err) {}

    @ParameterizedTest
    @ValueSource(strings = {"run", "secrets", "images", "mutation", "test"})
    void theScriptsOwnCommandsAnswerHelpWithoutDoingAnything(String command, @TempDir Path dir) throws Exception {
        // Given a copy of the script alone in an empty folder (nothing built, no secrets, no stack)
        Path script = copyOfTheScript(dir);
        // When the command is asked for its help
        Run r = run(dir, script, command, "--help");
        // Then it prints its usage, exits 0, and the folder holds nothing it made but the script's home
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("usage: ./seckill " + command);
        assertThat(r.err()).as("nothing built, started or written").isEmpty();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("seckill", "pom.xml", "docs", ".seckill");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"secrets --bogus", "secrets --dir", "images --bogus", "images --base foo", "images --only"})
    void aBadFlagOfTheScriptsOwnCommandsIsOneLineAndExit2_beforeAnythingIsBuiltOrWritten(String line, @TempDir Path dir)
            throws Exception {
        Path script = copyOfTheScript(dir);
        Run r = run(dir, script, line.split(" "));
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err().lines()).as("one line").hasSize(1).allMatch(l -> l.startsWith("seckill: "));
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("nothing built or written")
                    .containsExactlyInAnyOrder("seckill", "pom.xml", "docs", ".seckill");
        }
    }

    @Test
    void helpAndTheVersionAnswerInATreeNotBuiltYet(@TempDir Path dir) throws Exception {
        Path script = copyOfTheScript(dir);
        Run version = run(dir, script, "--version");
        assertThat(version.exit()).isZero();
        assertThat(version.out().strip()).matches("seckill \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(not built yet\\)");
        Run help = run(dir, script, "help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("# The command line").contains("| `demo [");
    }

    private static Path copyOfTheScript(Path dir) throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Files.copy(root.resolve("seckill"), dir.resolve("seckill"));
        Files.copy(root.resolve("pom.xml"), dir.resolve("pom.xml"));
        Files.createDirectories(dir.resolve("docs"));
        Files.copy(root.resolve("docs/cli.md"), dir.resolve("docs/cli.md"));
        return dir.resolve("seckill");
    }

    private static Run run(Path dir, Path script, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().remove("SECKILL_HOME");
        Path out = dir.resolve("../" + dir.getFileName() + ".out");
        Path err = dir.resolve("../" + dir.getFileName() + ".err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("answered at once").isTrue();
        Run r = new Run(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return r;
    }
}
