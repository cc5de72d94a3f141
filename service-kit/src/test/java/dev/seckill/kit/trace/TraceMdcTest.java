package dev.seckill.kit.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

@Tag("fast")
class TraceMdcTest {
    @Test
    void bothIdsAreInTheMdcWhileOpen_andGoneAfter() {
        try (TraceMdc ignored = TraceMdc.put("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7")) {
            assertThat(MDC.get("traceId")).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
            assertThat(MDC.get("spanId")).isEqualTo("00f067aa0ba902b7");
        }
        assertThat(MDC.get("traceId")).isNull();
        assertThat(MDC.get("spanId")).isNull();
    }

    @Test
    void anEmptyOrMissingIdIsLeftOut() {
        try (TraceMdc ignored = TraceMdc.put(null, "")) {
            assertThat(MDC.getCopyOfContextMap()).doesNotContainKeys("traceId", "spanId");
        }
    }
}
