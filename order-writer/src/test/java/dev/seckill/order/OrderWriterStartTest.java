package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.stack.KafkaFixture;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given a database that refuses the writer's user (a first start of the database's container cut short before it made
 * the user), when order-writer starts as a service (its {@code main}, as an image starts it), then it stops with one
 * line on stderr and exit code 1, so that the orchestrator starts it again and a log collector, which reads the rest of
 * its output as one JSON object per line, reads one line. Flyway's own message spans five lines under a rule of dashes.
 */
class OrderWriterStartTest {
    @Test
    void givenADatabaseThatRefusesTheUser_whenTheWriterStarts_thenOneLineOnStderrAndExit1(@TempDir Path dir)
            throws Exception {
        Path err = dir.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        OrderWriterApp.class.getName())
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("SECKILL_"));
        pb.environment().put("SECKILL_HOME", dir.toString());
        pb.environment().put("SECKILL_LOG_FORMAT", "json");
        pb.environment().put("SECKILL_KAFKA_BOOTSTRAP", KafkaFixture.bootstrap());
        pb.environment().put("SECKILL_WRITER_METRICS_PORT", "0");
        pb.environment().put("SECKILL_DB_URL", "jdbc:mysql://127.0.0.1:3306/seckill_refused");
        pb.environment()
                .put("SECKILL_DB_USER", "nobody_" + UUID.randomUUID().toString().substring(0, 8));
        pb.environment().put("SECKILL_DB_PASSWORD", "not-the-password");
        pb.environment().put("SECKILL_DB_CONNECT_TIMEOUT_MS", "1000");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS))
                .as("the writer stopped by itself")
                .isTrue();

        List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank())
                .toList();
        assertThat(p.exitValue()).as("exit code; stderr: %s", lines).isEqualTo(1);
        assertThat(lines).as("stderr").hasSize(1);
        assertThat(lines.get(0))
                .startsWith("order-writer: could not start: ")
                .contains("Unable to obtain connection", "Access denied")
                .doesNotContain("---");
    }
}
