package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.infra.cli.BenchCommands;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Given a benchmark's figures, when they are put into its {@code --json} document, then the document is valid JSON a
 * strict reader takes (a ratio to nothing or a percentile never reached is null, not {@code NaN}), the report went to
 * the notes' stream, and without {@code --json} stdout holds the report alone.
 */
@Tag("fast")
class ReportOutputTest {
    @Test
    void aDocumentHoldsTheFlagsAndFiguresWithNoNonFiniteNumber() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream notes = new ByteArrayOutputStream();
        var flags = BenchCommands.BENCH_HOT.parse(new String[] {"bench", "hot", "--buckets", "1,2", "--json"});
        ReportOutput o = ReportOutput.of(
                "hot",
                flags,
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(notes, true, StandardCharsets.UTF_8));
        o.text().println("== bench hot ==");
        o.put("ratio", Double.NaN)
                .put("rows", List.of(Map.of("p99", Double.POSITIVE_INFINITY, "p50", 1.5)))
                .put("count", 3);
        assertThat(o.finish(1)).isEqualTo(1);

        JsonNode doc = Json.MAPPER.readTree(stdout.toString(StandardCharsets.UTF_8));
        assertThat(doc.path("benchmark").asText()).isEqualTo("hot");
        assertThat(doc.path("flags").path("buckets").asText()).isEqualTo("1,2");
        assertThat(doc.path("flags").path("commands").asText())
                .as("a declared default")
                .isEqualTo("200000");
        assertThat(doc.path("flags").has("json")).isFalse();
        assertThat(doc.path("ratio").isNull()).isTrue();
        assertThat(doc.path("rows").path(0).path("p99").isNull()).isTrue();
        assertThat(doc.path("rows").path(0).path("p50").asDouble()).isEqualTo(1.5);
        assertThat(doc.path("count").asInt()).isEqualTo(3);
        assertThat(doc.path("exit").asInt()).isEqualTo(1);
        assertThat(stdout.toString(StandardCharsets.UTF_8)).doesNotContain("NaN", "Infinity", "== bench hot ==");
        assertThat(notes.toString(StandardCharsets.UTF_8)).contains("== bench hot ==");
    }

    @Test
    void withoutJsonTheReportIsStdoutsAlone() {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        var flags = BenchCommands.BENCH_HOT.parse(new String[] {"bench", "hot"});
        ReportOutput o =
                ReportOutput.of("hot", flags, new PrintStream(stdout, true, StandardCharsets.UTF_8), System.err);
        o.text().println("== bench hot ==");
        o.put("ratio", 1.0);
        assertThat(o.finish(0)).isZero();
        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEqualTo("== bench hot ==" + System.lineSeparator());
    }
}
