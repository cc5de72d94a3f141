package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.infra.harness.Flags;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class CliCommandTest {
    @Test
    void aCommandParsesTheFlagsItDeclaresAfterItsWords() {
        Flags f = CliCommands.SALE_OPEN.parse(
                new String[] {"sale", "open", "--goods", "1001", "--stock", "5", "--force"});
        assertThat(f.getLong("goods", 0)).isEqualTo(1001);
        assertThat(f.has("force")).isTrue();
        assertThatThrownBy(() -> CliCommands.SALE_CLOSE.parse(new String[] {"sale", "close", "--stock", "5"}))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("unknown flag --stock");
        assertThatThrownBy(() -> CliCommands.RECONCILE.parse(new String[] {"reconcile", "--goods"}))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("--goods needs a value");
    }

    @Test
    void theUsageShowsRequiredFlagsThenOptionalOnesAndSwitches() {
        assertThat(CliCommands.SALE_OPEN.usage())
                .isEqualTo(
                        "sale open --goods N --stock N [--minutes N --limit N --start-in-seconds N --force --namespace NAME]");
        assertThat(CliCommands.RUN.usage()).isEqualTo("run <service>");
        assertThat(CliCommands.BENCH_ORDERS.flagNames())
                .containsExactlyInAnyOrder("orders", "batch", "raw-single", "warmup");
    }

    @Test
    void everyCommandAnswersHelp_withItsOwnFlags_andExitsZero() {
        var out = new java.io.ByteArrayOutputStream();
        int code = Seckill.run(new String[] {"bench", "decide", "--help"}, new java.io.PrintStream(out, true));
        assertThat(code).isZero();
        assertThat(out.toString())
                .startsWith("usage: ./seckill " + CliCommands.BENCH_DECIDE.usage() + "\n")
                .contains(CliCommands.BENCH_DECIDE.summary())
                .doesNotContain("bench orders");
        for (CliCommand c : CliCommands.all())
            assertThat(CliHelp.named(java.util.List.of((c.words() + " --help").split(" "))))
                    .as(c.words())
                    .isEqualTo(c);
        assertThat(CliHelp.named(java.util.List.of("help-me"))).isNull();
    }

    @Test
    void theVersionIsTheProjects_andAnUnknownFlagOfDownIsAUsageError() {
        var out = new java.io.ByteArrayOutputStream();
        assertThat(Seckill.run(new String[] {"--version"}, new java.io.PrintStream(out, true)))
                .isZero();
        assertThat(out.toString()).matches("seckill \\d+\\.\\d+\\.\\d+.*\\n");
        assertThatThrownBy(() -> CliCommands.DOWN.parse(new String[] {"down", "--bogus"}))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("unknown flag --bogus");
    }
}
