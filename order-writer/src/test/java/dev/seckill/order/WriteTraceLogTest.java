package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.kit.trace.Tracing;
import dev.seckill.order.write.Batch;
import dev.seckill.order.write.BatchWriter;
import dev.seckill.order.write.Piece;
import dev.seckill.order.write.TopicHandlers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * A line the writer logs while it applies a record carries the record's trace id and the writer's own span of it (its
 * write span, whose parent is the span the record's {@code traceparent} names); with tracing off, the span the record
 * names. Nothing is left in the MDC afterwards.
 */
class WriteTraceLogTest {
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String DECISION_SPAN = "00f067aa0ba902b7";

    final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    final Logger logger = (Logger) LoggerFactory.getLogger(TopicHandlers.class);
    final Topics topics = new Topics("wtl.");
    InMemorySpanExporter spans;
    SdkTracerProvider provider;
    TestDb db;

    @BeforeEach
    void start() {
        lines.start();
        logger.addAppender(lines);
        db = new TestDb();
    }

    @AfterEach
    void stop() throws Exception {
        logger.detachAppender(lines);
        Tracing.off();
        if (provider != null) provider.close();
        db.close();
    }

    @Test
    void givenTracingOn_aRefusedPaymentsLine_carriesTheWritersOwnSpan() throws Exception {
        spans = InMemorySpanExporter.create();
        provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(spans))
                .build();
        Tracing.use(OpenTelemetrySdk.builder().setTracerProvider(provider).build());

        write(payment(1));

        ILoggingEvent line = refusedLine();
        SpanData written = spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals(topics.payments() + " process"))
                .findFirst()
                .orElseThrow();
        assertThat(written.getParentSpanId()).isEqualTo(DECISION_SPAN);
        assertThat(written.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(line.getMDCPropertyMap())
                .containsEntry("traceId", TRACE_ID)
                .containsEntry("spanId", written.getSpanId());
        assertThat(MDC.get("spanId")).as("nothing left on the thread").isNull();
    }

    @Test
    void givenTracingOn_aPaymentWithNoTraceparent_itsLineCarriesItsTraceIdAndNoSpanOfAnotherTrace() throws Exception {
        spans = InMemorySpanExporter.create();
        provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(spans))
                .build();
        Tracing.use(OpenTelemetrySdk.builder().setTracerProvider(provider).build());
        ConsumerRecord<String, byte[]> untraced = payment(3);
        untraced.headers().remove("traceparent");

        write(untraced);

        assertThat(refusedLine().getMDCPropertyMap())
                .containsEntry("traceId", TRACE_ID)
                .doesNotContainKey("spanId");
    }

    @Test
    void givenTracingOff_theLineCarriesTheSpanTheRecordNames() throws Exception {
        write(payment(2));

        assertThat(refusedLine().getMDCPropertyMap())
                .containsEntry("traceId", TRACE_ID)
                .containsEntry("spanId", DECISION_SPAN);
        assertThat(MDC.get("traceId")).as("nothing left on the thread").isNull();
    }

    private void write(ConsumerRecord<String, byte[]> r) {
        BatchWriter writer = new BatchWriter(
                db.db,
                new TopicHandlers(topics, Duration.ofMinutes(15), new SimpleMeterRegistry()),
                new SimpleMeterRegistry());
        writer.writeUntilDone(new Batch(List.of(r), List.of(new Piece.One(r)), Map.of()), () -> true);
    }

    private ILoggingEvent refusedLine() {
        return lines.list.stream()
                .filter(e -> e.getFormattedMessage().contains("refused"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line of the refused payment in " + lines.list));
    }

    /** A payment of an order that does not exist (refused, and logged so), carrying a traceparent. */
    private ConsumerRecord<String, byte[]> payment(long offset) {
        byte[] value = Json.write(Payment.of("psp-trace-" + offset, 987_654 + offset, Instant.now()));
        ConsumerRecord<String, byte[]> r = new ConsumerRecord<>(topics.payments(), 0, offset, "987654", value);
        r.headers()
                .add("traceparent", ("00-" + TRACE_ID + "-" + DECISION_SPAN + "-01").getBytes(StandardCharsets.UTF_8));
        r.headers().add("traceId", TRACE_ID.getBytes(StandardCharsets.UTF_8));
        return r;
    }
}
