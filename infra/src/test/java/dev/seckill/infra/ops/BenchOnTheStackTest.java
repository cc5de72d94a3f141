package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.cli.Seckill;
import dev.seckill.kit.config.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A benchmark run from the CLI measures the real stack and first makes sure it is there, as {@code up} and the demo
 * do: on a fresh machine {@code ./seckill bench orders} starts Kafka rather than failing after 30 s on "null".
 */
class BenchOnTheStackTest {
    @Test
    void aBenchmarkSaysWhatOfTheStackItUses_thenMeasures() {
        // Given the tests' stack (Redis, MySQL and a broker that answer)
        Settings settings = LoadCommandTest.pipelineSettings(Map.of());
        // When a small order-writer benchmark runs through the CLI
        String out = LoadCommandTest.run(
                settings, "bench", "orders", "--orders", "300", "--warmup", "0", "--raw-single", "50");
        // Then it checked each server before it measured, and measured
        assertThat(out)
                .containsPattern("(?m)^redis +\\S+ +answers \\(using it\\)$")
                .containsPattern("(?m)^mysql +\\S+ +answers \\(using it\\)$")
                .containsPattern("(?m)^kafka +" + settings.kafkaBootstrap() + " +answers \\(using it\\)$")
                .contains("orders/s");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "bench hot --buckets 1 --routes sideways|--routes",
                "bench hot --buckets 2,x|--buckets",
                "bench hot --buckets 1,13|--buckets",
                // one bucket per partition of the topics it creates: the stack's topic.partitions, 2 here
                "bench hot --buckets 1,3|--buckets lists bucket counts of 1..2,",
                "bench gateway --token none|--token",
                "bench gateway --generator jvm --request-ids|--request-ids",
                "bench strategies --strategies sync,magic|--strategies",
                "bench strategies --buckets 99|--buckets",
                "bench coldstart --variants hot|--variants",
                "bench fairness --bots 0|--bots",
                "bench fairness --delay-ms 0|--delay-ms"
            })
    void aBadValueOfAFlagABenchmarkReadsIsOneLineBeforeAnythingStarts(String command, String flag) {
        // Given the tests' stack, which a benchmark would say it uses before measuring
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        int exit;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            // When a benchmark is asked for with a value it cannot take
            exit = Seckill.run(
                    LoadCommandTest.pipelineSettings(Map.of()),
                    command.split(" "),
                    new PrintStream(out, true, StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
        }
        // Then it is refused in one line naming the flag, exit 2, before the stack was looked at
        String said = err.toString(StandardCharsets.UTF_8).strip();
        assertThat(exit).as(said).isEqualTo(2);
        assertThat(said).contains(flag).doesNotContain("\n");
        assertThat(out.toString(StandardCharsets.UTF_8))
                .as("nothing looked at or started")
                .isEmpty();
    }
}
