package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class FlagsTest {
    static Flags flags(String... args) {
        return new Flags(args, 0, Set.of("commands", "warmup"), Set.of());
    }

    @Test
    void aCountMayBeZeroButASizeMayNot() {
        assertThat(flags("--warmup", "0").getCount("warmup", 300_000)).isZero();
        assertThat(flags("--warmup", "1,000").getCount("warmup", 300_000)).isEqualTo(1000);
        assertThat(flags().getCount("warmup", 300_000)).isEqualTo(300_000);
        assertThatThrownBy(() -> flags("--commands", "0").getLong("commands", 1))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("--commands must be a positive number, got 0");
        assertThatThrownBy(() -> flags("--warmup", "-1").getCount("warmup", 1))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("--warmup must be zero or a positive number, got -1");
        assertThatThrownBy(() -> flags("--warmup", "many").getCount("warmup", 1))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("--warmup must be a number, got 'many'");
    }
}
