package dev.seckill.infra.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.cli.CliCommands;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Given a live sale and, beside it, a lottery sale and a registration sale of two more goods, when stock-stream is
 * SIGKILLed inside their windows and restarted, then every window purchase is drawn, the outcomes follow the draw recomputed from the
 * topics (the winners are those the draw gives without the kill), one answer each, every SUCCESS its order row, every
 * invariant; and the run prints the draw's time to answer. The kill comes once the stream has committed the first
 * half of the window's purchases (held in its store); a restart that outlasts the window fails the check, naming why.
 *
 * <p>Tagged {@code alone}: {@code ./seckill test} runs it with nothing beside it. Its restart must land inside the
 * window, and beside the suite's other jobs on two cores it took up to 21 s (3–5 s alone).
 */
@Tag("alone")
class ChaosDrawTest {
    @Test
    void aStreamKilledInsideALotterysWindowDrawsTheSameWinnersAndLosesNothing() throws Exception {
        Settings base = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        int exit = ChaosCommand.run(
                base,
                CliCommands.CHAOS.parse(new String[] {
                    "chaos",
                    "--scenario",
                    "draw-kill",
                    "--stock",
                    "60",
                    "--requests",
                    "1500",
                    "--concurrency",
                    "20",
                    "--users",
                    "800",
                    "--seed",
                    "11",
                    "--warmup",
                    "300"
                }),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(out).isZero();
        String table = out.substring(out.indexOf("== chaos (1 broker) =="));
        assertThat(table.lines().filter(l -> l.startsWith("draw-kill ")))
                .singleElement()
                .satisfies(row -> assertThat(row).endsWith("PASS").matches("\\S+ +1 .*"));
        assertThat(out)
                .as("killed with the first half held and committed: the restart restores them, not reads them again")
                .containsPattern("inside their windows, \\d+ purchases held and committed");
        assertThat(out)
                .contains("goods " + DrawKill.LOTTERY_GOODS + ", the draw's time to answer (cutoff → outcome): p50")
                .contains(
                        "goods " + DrawKill.REGISTRATION_GOODS + ", the draw's time to answer (cutoff → outcome): p50")
                .contains("registration goods " + DrawKill.REGISTRATION_GOODS);
        assertThat(table).contains("every invariant held in every scenario");
    }
}
