package dev.seckill.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class JitChoiceTest {
    @Test
    void unsetOrTieredLeavesTheJvmItsDefaultCompilers() {
        assertThat(JitChoice.jvmOptions(null)).isEmpty();
        assertThat(JitChoice.jvmOptions("")).isEmpty();
        assertThat(JitChoice.jvmOptions("tiered")).isEmpty();
    }

    @Test
    void c1StopsTheTiersAtC1() {
        assertThat(JitChoice.jvmOptions("c1")).containsExactly("-XX:TieredStopAtLevel=1");
    }

    @Test
    void anyOtherValueIsOneLineNamingTheVariable() {
        assertThatThrownBy(() -> JitChoice.jvmOptions("c2"))
                .isInstanceOf(BadSetting.class)
                .hasMessage("SECKILL_JIT is tiered or c1, not 'c2'");
    }
}
