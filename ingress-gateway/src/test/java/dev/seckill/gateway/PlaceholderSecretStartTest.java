package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.stack.KafkaFixture;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given the secret deploy/seckill.env used to ship, when the gateway starts as a service (its {@code main}, as an image
 * or {@code ./seckill run} starts it), then it refuses at once with one line naming the setting and exit code 2: a
 * copy-paste deployment must not let anyone mint buyer tokens.
 */
class PlaceholderSecretStartTest {
    @Test
    void givenThePlaceholderAuthSecret_whenTheGatewayStarts_thenOneLineNamingTheSettingAndExit2(@TempDir Path dir)
            throws Exception {
        Path err = dir.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        GatewayApp.class.getName())
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("SECKILL_"));
        pb.environment().put("SECKILL_HOME", dir.toString());
        pb.environment().put("SECKILL_KAFKA_BOOTSTRAP", KafkaFixture.bootstrap());
        pb.environment().put("SECKILL_GATEWAY_PORT", "0");
        pb.environment().put("SECKILL_GATEWAY_METRICS_PORT", "0");
        pb.environment().put("SECKILL_GATEWAY_WARMUP_REQUESTS", "0");
        pb.environment().put("SECKILL_GATEWAY_AUTH_SECRET", "change-me-to-32-or-more-random-characters-0001");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS))
                .as("the gateway stopped by itself")
                .isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank())
                .toList();
        assertThat(lines)
                .containsExactly(
                        "ingress-gateway: SECKILL_GATEWAY_AUTH_SECRET is a placeholder (it contains \"changeme\"):"
                                + " set a random value, e.g. the output of `openssl rand -base64 48`");
    }
}
