package dev.seckill.contracts.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asyncapi.yaml} parses with the AsyncAPI Initiative's own parser ({@code @asyncapi/parser}, the one its CLI and
 * Studio use; {@code contracts/asyncapi-check}), which resolves every {@code $ref} — the document's own and the value
 * schemas beside it — and runs the specification's rules over the whole: no error and no warning. A copy with a
 * dangling reference and one with an operation on a channel it does not name are refused, so the check can fail.
 */
class AsyncApiParserTest {
    private static final Path CHECK = Path.of("asyncapi-check").toAbsolutePath();

    record Verdict(int exit, String output) {}

    @BeforeAll
    static void installTheParser() throws Exception {
        Assumptions.assumeTrue(onPath("node") && onPath("npm"), "no Node.js: the AsyncAPI parser's check is skipped");
        if (!Files.isDirectory(CHECK.resolve("node_modules"))) {
            Verdict install = exec(List.of("npm", "ci", "--no-audit", "--no-fund"), 300);
            assertThat(install.exit())
                    .as("npm ci in %s: %s", CHECK, install.output())
                    .isZero();
        }
    }

    @Test
    void theDocumentParses_withNoErrorAndNoWarning() throws Exception {
        Verdict v = parse(AsyncApiTest.DOCUMENT.toAbsolutePath());
        assertThat(v.output())
                .as("the parser's diagnostics")
                .doesNotContain("error ")
                .doesNotContain("warning ");
        assertThat(v.exit()).as(v.output()).isZero();
        assertThat(v.output()).endsWith("parsed\n");
    }

    @Test
    void aDanglingReference_isRefused(@TempDir Path dir) throws Exception {
        String doc = AsyncApiTest.document();
        String broken = doc.replaceFirst("\\$ref: '#/channels/", "\\$ref: '#/channels/nowhere-");
        assertThat(broken).isNotEqualTo(doc);
        Verdict v = parse(copyWithSchemas(dir, broken));
        assertThat(v.exit()).as(v.output()).isEqualTo(1);
        assertThat(v.output()).contains("error invalid-ref").contains("not parsed");
    }

    @Test
    void aMissingValueSchema_isRefused(@TempDir Path dir) throws Exception {
        String doc = AsyncApiTest.document();
        String broken = doc.replaceFirst("\\$ref: schema/", "\\$ref: schema/missing-");
        assertThat(broken).isNotEqualTo(doc);
        Verdict v = parse(copyWithSchemas(dir, broken));
        assertThat(v.exit()).as(v.output()).isEqualTo(1);
        assertThat(v.output()).contains("not parsed");
    }

    /** {@code document} written in {@code dir} with the value schemas beside it, as in the jar. */
    private static Path copyWithSchemas(Path dir, String document) throws IOException {
        Path schemas = AsyncApiTest.DOCUMENT.resolveSibling("schema");
        Files.createDirectories(dir.resolve("schema"));
        try (Stream<Path> files = Files.list(schemas)) {
            for (Path f : files.toList()) Files.copy(f, dir.resolve("schema").resolve(f.getFileName()));
        }
        Path out = dir.resolve("asyncapi.yaml");
        Files.writeString(out, document, StandardCharsets.UTF_8);
        return out;
    }

    private static Verdict parse(Path document) throws Exception {
        return exec(List.of("node", "check.mjs", document.toString()), 120);
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":"))
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        return false;
    }

    /** Runs {@code command} in the checker's folder, its output to a file, so that a hung one is stopped in time. */
    private static Verdict exec(List<String> command, int seconds) throws IOException, InterruptedException {
        Path output = Files.createTempFile("asyncapi-check", ".out");
        try {
            Process p = new ProcessBuilder(command)
                    .directory(CHECK.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(
                        command + " did not end in " + seconds + " s: " + Files.readString(output));
            }
            return new Verdict(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
