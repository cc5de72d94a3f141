package dev.seckill.kit.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logback.xml in service-kit's jar is what a service gets however it starts: {@link LoggingProbe} runs in a JVM of
 * its own on this module's test classpath (no logback-test.xml, no {@code -Dlogback.configurationFile}), as a service
 * runs from its jars in an image, and its stdout, stderr and log file are read.
 */
@Tag("fast")
class LogbackConfigTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    record Run(List<String> out, List<String> err, Path home) {
        List<String> file(Path log) throws IOException {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        }
    }

    @Test
    void jsonPutsOneObjectPerLineOnStdoutWithTheTraceIdAndTheException() throws Exception {
        Run run = run(Map.of("SECKILL_LOG_FORMAT", "json"), List.of());

        assertThat(run.err()).as("stderr").isEmpty();
        assertThat(run.out()).as("INFO and ERROR, no DEBUG").hasSize(3);
        List<JsonNode> lines = new ArrayList<>();
        for (String line : run.out()) lines.add(JSON.readTree(line)); // every line is a JSON object, or this throws
        lines.forEach(l -> assertThat(l.isObject()).isTrue());

        JsonNode info = lines.get(0);
        assertThat(info.path("level").asText()).isEqualTo("INFO");
        assertThat(info.path("loggerName").asText()).isEqualTo(LoggingProbe.LOGGER);
        assertThat(info.path("formattedMessage").asText()).isEqualTo("handling purchase 42");
        assertThat(info.path("message").asText()).isEqualTo("handling purchase {}");
        assertThat(info.path("timestamp").asLong()).isPositive();
        assertThat(info.path("threadName").asText()).isEqualTo("main");
        assertThat(info.path("mdc").path("traceId").asText()).isEqualTo(LoggingProbe.TRACE_ID);

        JsonNode error = lines.get(1);
        assertThat(error.path("level").asText()).isEqualTo("ERROR");
        assertThat(error.path("formattedMessage").asText()).isEqualTo("purchase 42 failed");
        assertThat(error.path("mdc").path("traceId").asText()).isEqualTo(LoggingProbe.TRACE_ID);
        JsonNode thrown = error.path("throwable");
        assertThat(thrown.path("className").asText()).isEqualTo(IllegalStateException.class.getName());
        assertThat(thrown.path("message").asText()).isEqualTo("boom");
        assertThat(thrown.path("stepArray").size()).as("stack frames").isPositive();
        assertThat(thrown.path("cause").path("message").asText()).isEqualTo("root cause");

        JsonNode after = lines.get(2);
        assertThat(after.path("formattedMessage").asText()).isEqualTo("after the request");
        assertThat(after.path("mdc").has("traceId"))
                .as("no traceId outside the request")
                .isFalse();
        assertThat(run.home().resolve("logs")).as("no log file in json").doesNotExist();
    }

    @Test
    void withoutAnySettingItIsTodaysTextFileAtInfoAndOnlyProblemsOnTheConsole() throws Exception {
        Run run = run(Map.of(), List.of());

        assertThat(run.out())
                .as("stdout: no DEBUG default configuration, no logback status")
                .isEmpty();
        assertThat(run.err().get(0)).isEqualTo("ERROR " + LoggingProbe.LOGGER + " - purchase 42 failed");
        assertThat(String.join("\n", run.err()))
                .contains("java.lang.IllegalStateException: boom")
                .doesNotContain("INFO", "handling purchase");
        List<String> file = run.file(run.home().resolve("logs/seckill.log"));
        assertThat(file)
                .anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[main] " + LoggingProbe.LOGGER
                        + " trace=" + LoggingProbe.TRACE_ID + " - handling purchase 42"))
                .anyMatch(l -> l.contains("ERROR [main] " + LoggingProbe.LOGGER + " trace=" + LoggingProbe.TRACE_ID
                        + " - purchase 42 failed"))
                .anyMatch(l -> l.endsWith(" trace= - after the request"))
                .noneMatch(l -> l.contains("DEBUG") || l.contains("a debug line"))
                .noneMatch(l -> l.contains("(Re-)joining group")); // Kafka's INFO only when asked for
    }

    @Test
    void kafkasOwnLevelIsItsOwnSetting() throws Exception {
        Run run = run(Map.of("SECKILL_KAFKA_LOG_LEVEL", "INFO"), List.of());
        assertThat(run.file(run.home().resolve("logs/seckill.log")))
                .anyMatch(l -> l.contains("INFO  [main] o.a.k.c.c.i.ConsumerCoordinator trace= - (Re-)joining group"));
    }

    @Test
    void theLogFileAndLevelComeFromTheEnvironmentOrJvmProperties() throws Exception {
        Path log = home.resolve("services/stock-stream.log");
        Run run = run(Map.of("SECKILL_LOG_LEVEL", "DEBUG"), List.of("-DSECKILL_LOG_FILE=" + log));
        assertThat(run.file(log)).anyMatch(l -> l.contains("DEBUG [main] " + LoggingProbe.LOGGER));
        assertThat(run.home().resolve("logs/seckill.log")).doesNotExist();

        Run json = run(Map.of("SECKILL_LOG_LEVEL", "ERROR"), List.of("-DSECKILL_LOG_FORMAT=json"));
        assertThat(json.out()).hasSize(1);
        assertThat(JSON.readTree(json.out().get(0)).path("level").asText()).isEqualTo("ERROR");
    }

    /** The probe in a JVM of its own, SECKILL_HOME a directory of this test's, no SECKILL_LOG_* but {@code env}. */
    Run run(Map<String, String> env, List<String> jvmOptions) throws IOException, InterruptedException {
        Path runHome = Files.createTempDirectory(home, "home");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LoggingProbe.class.getName()));
        Path out = runHome.resolve("stdout");
        Path err = runHome.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .directory(runHome.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SECKILL_LOG_") || k.equals("SECKILL_KAFKA_LOG_LEVEL"));
        pb.environment().put("SECKILL_HOME", runHome.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the probe ends").isTrue();
        assertThat(p.exitValue()).as("exit status").isZero();
        return new Run(
                Files.readAllLines(out, StandardCharsets.UTF_8),
                Files.readAllLines(err, StandardCharsets.UTF_8),
                runHome);
    }
}
