package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
