package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.stack.KafkaFixture;
import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * order-writer started as a service (its {@code main}, as an image starts it) against a database that is not there yet
 * or refuses it: what it says on stderr is one line per fact (a log collector reads the rest of its output as one JSON
 * object per line), and it exits so that the orchestrator starts it again.
 */
class OrderWriterStartTest {
    /**
     * Given a database that refuses the writer's user (a first start of the database's container cut short before it
     * made the user), then one line and exit code 1: Flyway's own message spans five lines under a rule of dashes.
     */
    @Test
    void givenADatabaseThatRefusesTheUser_whenTheWriterStarts_thenOneLineOnStderrAndExit1(@TempDir Path dir)
            throws Exception {
        Started run = start(
                dir,
                Map.of(
                        "SECKILL_DB_URL",
                        TestDb.SERVER + "/seckill_refused",
                        "SECKILL_DB_USER",
                        "nobody_" + UUID.randomUUID().toString().substring(0, 8),
                        "SECKILL_DB_PASSWORD",
                        "not-the-password",
                        "SECKILL_DB_CONNECT_TIMEOUT_MS",
                        "5000"));

        assertThat(run.exit()).as("exit code; stderr: %s", run.stderr()).isEqualTo(1);
        assertThat(run.stderr()).as("stderr").hasSize(1);
        assertThat(run.stderr().get(0))
                .startsWith("order-writer: could not start: ")
                .contains("Unable to obtain connection")
                .doesNotContain("---");
    }

    /**
     * Given no database for the whole of the start's wait ({@code SECKILL_START_WAIT_MS}, as the images set it), when
     * the writer starts, then it says once what it waits for, and after the wait the same one line and exit 2 as
     * without one.
     */
    @Test
    void givenNoDatabaseForTheWholeStartWait_whenTheWriterStarts_thenItSaysWhatItWaitsForThenOneLineAndExit2(
            @TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        long started = System.nanoTime();
        Started run = start(
                dir,
                Map.of(
                        "SECKILL_DB_URL",
                        "jdbc:mysql://127.0.0.1:" + port + "/seckill",
                        "SECKILL_START_WAIT_MS",
                        "2000"));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(run.exit()).as("exit code; stderr: %s", run.stderr()).isEqualTo(2);
        assertThat(run.stderr())
                .containsExactly(
                        "order-writer: waiting for MySQL at 127.0.0.1:" + port + " (up to 2 s from the start)",
                        "order-writer: MySQL is not reachable at 127.0.0.1:" + port
                                + " (start it or set SECKILL_DB_URL)");
    }

    record Started(int exit, List<String> stderr) {}

    /** order-writer's main in a JVM of its own, as an image starts it, with {@code env} beside a reachable Kafka. */
    private static Started start(Path dir, Map<String, String> env) throws Exception {
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
        pb.environment().putAll(env);
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS))
                .as("the writer stopped by itself")
                .isTrue();
        List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank())
                .toList();
        return new Started(p.exitValue(), lines);
    }
}
