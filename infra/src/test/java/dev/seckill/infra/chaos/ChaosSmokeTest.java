package dev.seckill.infra.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.cli.CliCommands;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The chaos suite's smoke inside {@code ./seckill test}: stock-stream SIGKILLed three times at random moments of a live
 * sale (each started again a second later), and Redis (the scenario's own) restarted without persistence mid-sale and
 * repaired by the reconciler; every invariant holds when read from the DB and the topics against what every buyer was
 * told, and each scenario's row says PASS with its faults counted and its recoveries measured. (The poison storm is
 * {@code ./seckill chaos}'s and its records {@code PoisonRecordsTest}'s; a poisoned pipeline's DLQ and alert are
 * {@code AlertsThroughPrometheusTest}'s and {@code DeadLetterCommandTest}'s: a third pipeline here cost the suite
 * 45 s.)
 */
class ChaosSmokeTest {
    @Test
    void aKilledStreamAndAWipedRedisLoseNothingAndSellNothingTwice() throws Exception {
        Settings base = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        int exit = ChaosCommand.run(
                base,
                CliCommands.CHAOS.parse(new String[] {
                    "chaos",
                    "--scenario",
                    "kill-stream,redis-restart",
                    "--stock",
                    "80",
                    "--requests",
                    "2500",
                    "--concurrency",
                    "40",
                    "--users",
                    "1200",
                    "--seed",
                    "7",
                    // the services' warm-up before ready, shortened for the suite's time (a restart mid-sale skips it)
                    "--warmup",
                    "300",
                    // each SIGKILLed stream down a second before its restart, as a supervisor's back-off leaves it
                    "--restart-after-ms",
                    "1000"
                }),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(out).isZero();
        // each kill's restart waited its second: the time from the SIGKILL to the restart's /health 200 includes it
        assertThat(out.lines().filter(l -> l.contains("SIGKILLed at ")))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l).contains("started again 1,000 ms later"))
                .allSatisfy(l -> assertThat(Long.parseLong(l.replaceAll(".*/health 200 after ([0-9,]+) ms$", "$1")
                                .replace(",", "")))
                        .isGreaterThanOrEqualTo(1_000));
        String table = out.substring(out.indexOf("== chaos (1 broker) =="));
        assertThat(table.lines().filter(l -> l.startsWith("kill-stream ") || l.startsWith("redis-restart ")))
                .hasSize(2)
                .allSatisfy(row -> assertThat(row).endsWith("PASS").matches("\\S+ +[1-9] .*"));
        // the wipe was repaired: its recovery is a time, not "never"
        assertThat(table.lines()
                        .filter(l -> l.startsWith("redis-restart "))
                        .findFirst()
                        .orElseThrow())
                .doesNotContain("never")
                .matches(".* [0-9,]+ +PASS");
        assertThat(table).contains("every invariant held in every scenario");
    }
}
