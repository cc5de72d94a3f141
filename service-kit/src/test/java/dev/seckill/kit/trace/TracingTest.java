package dev.seckill.kit.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.kit.config.BadSetting;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Tracing's settings refuse what cannot work in one line, and the context travels in Kafka headers as W3C says. */
@Tag("fast")
class TracingTest {
    static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String SPAN = "00f067aa0ba902b7";

    @AfterEach
    void off() {
        Tracing.off();
    }

    @Test
    void offByDefault_noSpansAndNothingToClose() throws Exception {
        AutoCloseable tracing = Tracing.start(Settings.with(Map.of()), "test");
        assertThat(Tracing.on()).isFalse();
        tracing.close();
    }

    @Test
    void anEndpointThatIsNoUrl_orARatioOutsideZeroToOne_isOneReadableLine() {
        assertThatThrownBy(() -> Tracing.start(
                        Settings.with(Map.of(SharedSettings.TRACE_OTLP_ENDPOINT.name(), "not a url")), "test"))
                .isInstanceOf(BadSetting.class)
                .hasMessageContaining("SECKILL_TRACE_OTLP_ENDPOINT");
        assertThatThrownBy(() -> Tracing.start(
                        Settings.with(Map.of(
                                SharedSettings.TRACE_OTLP_ENDPOINT.name(), "http://127.0.0.1:4318/v1/traces",
                                SharedSettings.TRACE_SAMPLE_RATIO.name(), "2")),
                        "test"))
                .isInstanceOf(BadSetting.class)
                .hasMessageContaining("SECKILL_TRACE_SAMPLE_RATIO");
        assertThat(Tracing.on()).isFalse();
    }

    @Test
    void aSpansContextGoesIntoTheHeaders_replacingTheOneThere_andComesBackOut() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(
                Tracing.TRACEPARENT,
                "00-11111111111111111111111111111111-2222222222222222-01".getBytes(StandardCharsets.UTF_8));
        Span span = Span.wrap(SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(), TraceState.getDefault()));

        Tracing.into(span, headers);

        assertThat(headers.headers(Tracing.TRACEPARENT)).hasSize(1);
        SpanContext back = Span.fromContext(Tracing.from(headers)).getSpanContext();
        assertThat(back.getTraceId()).isEqualTo(TRACE);
        assertThat(back.getSpanId()).isEqualTo(SPAN);
        assertThat(Tracing.spanOf(headers).getSpanId()).isEqualTo(SPAN);
    }

    @Test
    void aMalformedTraceparentIsIgnored() {
        assertThat(Span.fromContext(Tracing.fromTraceparent("00-zz-yy-01"))
                        .getSpanContext()
                        .isValid())
                .isFalse();
        assertThat(Tracing.fromTraceparent(null)).isSameAs(Context.root());
        assertThat(Tracing.spanOf(new RecordHeaders()).isValid()).isFalse();
    }
}
