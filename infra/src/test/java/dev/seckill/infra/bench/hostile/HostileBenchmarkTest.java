package dev.seckill.infra.bench.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.cli.BenchCommands;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given a small sale (20 buyers, 50 units) alone and then beside a small hostile flood (5 accounts posting made-up
 * goods at their limit, 10 connections of GETs of random ids, 3 s), when {@code bench hostile} runs it, then the table
 * and the text report carry every figure, nothing is oversold, no accepted purchase is answered 404 to its owner, the
 * flood was sent and answered, and nothing of the run is left on the broker.
 */
class HostileBenchmarkTest {
    @TempDir
    Path dir;

    @Test
    void aSmallSaleAloneAndBesideAFloodReportsEveryFigureWithNothingOversoldAndNoAcceptedPurchaseUnknown()
            throws Exception {
        Settings base =
                Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap(), "topic.partitions", "2"));
        Path report = dir.resolve("hostile.txt");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        int exit = HostileBenchmark.run(
                base,
                BenchCommands.BENCH_HOSTILE.parse(new String[] {
                    "bench",
                    "hostile",
                    "--buyers",
                    "20",
                    "--stock",
                    "50",
                    "--hostile-accounts",
                    "5",
                    "--get-connections",
                    "10",
                    "--seconds",
                    "3",
                    "--report",
                    report.toString()
                }),
                dev.seckill.infra.harness.ReportOutput.text(new PrintStream(bytes, true, StandardCharsets.UTF_8)));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(out).isZero();
        assertThat(out)
                .contains("== bench hostile: 20 buyers × 5 units of a 50-unit sale")
                .containsPattern("\\| buyers' time to answer p99 \\| [\\d.]+ ms \\| [\\d.]+ ms \\(×[\\d.]+\\) \\|")
                .contains("| units sold / stock (oversold) | 50 / 50 (0) | 50 / 50 (0) | 0 oversold: met |");
        Map<String, String> f = figures(Files.readString(report));
        for (String phase : new String[] {"quiet.", "flood."}) {
            assertThat(f.get(phase + "oversold")).as(phase + "oversold").isEqualTo("0");
            assertThat(f.get(phase + "accepted_404"))
                    .as(phase + "accepted purchases answered 404")
                    .isEqualTo("0");
            assertThat(f.get(phase + "no_answer"))
                    .as(phase + "buyers without an answer")
                    .isEqualTo("0");
            assertThat(Long.parseLong(f.get(phase + "accepted")))
                    .as(phase + "accepted")
                    .isPositive();
            assertThat(Long.parseLong(f.get(phase + "claims_tried"))).isPositive();
            assertThat(f)
                    .containsKeys(
                            phase + "time_to_answer_p50_ms",
                            phase + "time_to_answer_p99_ms",
                            phase + "claims_lost",
                            phase + "redis_used_memory_before_bytes",
                            phase + "redis_used_memory_after_bytes",
                            phase + "redis_keys_before",
                            phase + "redis_keys_after");
        }
        assertThat(Long.parseLong(f.get("flood.hostile_posts")))
                .as("made-up goods posted")
                .isPositive();
        assertThat(Long.parseLong(f.get("flood.hostile_gets")))
                .as("GETs of random ids")
                .isPositive();
        assertThat(Double.parseDouble(f.get("flood.seconds_of_flood"))).isGreaterThanOrEqualTo(3);
        assertThat(f.get("flood.hostile_get_answers")).as("every GET answered").doesNotContainPattern("(^| )0:");
        assertThat(f)
                .containsKeys(
                        "p99_ratio_flood_to_quiet",
                        "redis_bytes_per_million_hostile",
                        "redis_keys_per_million_hostile");
        assertThat(new Namespaces(base).list())
                .as("the run's topics are removed")
                .noneMatch(e -> e.name().startsWith("bench-hostile-"));
    }

    /** The report's {@code name value} lines after its {@code figures} line. */
    private static Map<String, String> figures(String report) {
        Map<String, String> f = new LinkedHashMap<>();
        String body = report.substring(report.indexOf("\nfigures\n") + "\nfigures\n".length());
        for (String line : body.split("\n")) {
            int sp = line.indexOf(' ');
            if (sp > 0) f.put(line.substring(0, sp), line.substring(sp + 1));
        }
        return f;
    }
}
