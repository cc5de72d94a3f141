package dev.seckill.kit.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

@Tag("fast")
class TraceMdcTest {
    static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String SPAN = "00f067aa0ba902b7";

    static SpanContext span(String traceId) {
        return SpanContext.create(traceId, SPAN, TraceFlags.getSampled(), TraceState.getDefault());
    }

    @Test
    void bothIdsAreInTheMdcWhileOpen_andGoneAfter() {
        try (TraceMdc ignored = TraceMdc.put(TRACE, span(TRACE))) {
            assertThat(MDC.get("traceId")).isEqualTo(TRACE);
            assertThat(MDC.get("spanId")).isEqualTo(SPAN);
        }
        assertThat(MDC.get("traceId")).isNull();
        assertThat(MDC.get("spanId")).isNull();
    }

    @Test
    void aSpanOfAnotherTrace_isLeftOut_soALineNeverPairsTwoTraces() {
        try (TraceMdc ignored = TraceMdc.put("client-chosen-trace", span(TRACE))) {
            assertThat(MDC.get("traceId")).isEqualTo("client-chosen-trace");
            assertThat(MDC.get("spanId")).isNull();
        }
    }

    @Test
    void noTraceId_nothingIsPut() {
        try (TraceMdc ignored = TraceMdc.put(null, span(TRACE))) {
            assertThat(MDC.get("traceId")).isNull();
            assertThat(MDC.get("spanId")).isNull();
        }
        try (TraceMdc ignored = TraceMdc.put(TRACE, SpanContext.getInvalid())) {
            assertThat(MDC.get("spanId")).isNull();
        }
    }
}
