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
}
