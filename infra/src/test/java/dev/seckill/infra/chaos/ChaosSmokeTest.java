package dev.seckill.infra.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The chaos suite's smoke inside {@code ./seckill test}: stock-stream SIGKILLed three times and the order-writer twice
 * at random moments of a live sale, each restarted; every invariant holds when read from the DB against what every
 * buyer was told, and each scenario's row says PASS with its restarts measured.
 */
class ChaosSmokeTest {
    @Test
    void theStreamAndTheWriterKilledMidSaleLoseNothingAndSellNothingTwice() throws Exception {
        Settings base = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        int exit = ChaosCommand.run(
                base,
                new String[] {
                    "chaos",
                    "--scenario",
                    "kill-stream,kill-writer",
                    "--stock",
                    "80",
                    "--requests",
                    "2500",
                    "--concurrency",
                    "40",
                    "--users",
                    "1200",
                    "--seed",
                    "7"
                },
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(out).isZero();
        String table = out.substring(out.indexOf("== chaos =="));
        assertThat(table.lines().filter(l -> l.startsWith("kill-stream ") || l.startsWith("kill-writer ")))
                .hasSize(2)
                .allSatisfy(row -> assertThat(row).endsWith("PASS").matches("\\S+ +[1-9] .*"));
        assertThat(table).contains("every invariant held in every scenario");
    }
}
