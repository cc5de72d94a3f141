package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.trace.Tracing;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One purchase, one connected trace (docs/decisions.md, "Tracing"): a real pipeline with the OpenTelemetry SDK's
 * in-memory exporter. The client's {@code traceparent} parents the gateway's request span; its publish span parents
 * the stream's decision of the command; that span parents the writer's write of the ledger entry that made the order
 * row — all in the client's trace, whose id the row carries.
 */
class TracingEndToEndTest {
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String CLIENT_SPAN = "00f067aa0ba902b7";

    static InMemorySpanExporter spans;
    static SdkTracerProvider provider;
    static Pipeline pipeline;

    @BeforeAll
    static void start() {
        spans = InMemorySpanExporter.create();
        provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(spans))
                .build();
        Tracing.use(OpenTelemetrySdk.builder().setTracerProvider(provider).build());
        Settings settings = TestNamespaces.inProcess(2);
        Namespace ns = TestNamespaces.create(
                settings, "trace-" + UUID.randomUUID().toString().substring(0, 8));
        pipeline = new Pipeline(ns).start();
    }

    @AfterAll
    static void stop() {
        Tracing.off();
        if (pipeline != null) pipeline.close();
        if (provider != null) provider.close();
    }

    @Test
    void givenAClientTraceparent_whenItBuys_thenOneTraceRunsFromItsRequestToTheOrderRow() throws Exception {
        long goods = 3101;
        pipeline.openSale(goods, 3, Duration.ofHours(1), 1);

        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + pipeline.gatewayPort() + "/api/purchases"))
                                .header("Content-Type", "application/json")
                                .header("traceparent", "00-" + TRACE_ID + "-" + CLIENT_SPAN + "-01")
                                .header("Authorization", pipeline.bearer(11))
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"goodsId\":3101,\"userId\":11,\"requestId\":\"otel-1\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(202);

        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(
                                pipeline.queryOne("SELECT trace_id FROM purchase_order WHERE request_id = ?", "otel-1"))
                        .isEqualTo(TRACE_ID));
        String commands = pipeline.topics().commands();
        String ledger = pipeline.topics().ledger();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<SpanData> trace = spans.getFinishedSpanItems().stream()
                    .filter(s -> s.getTraceId().equals(TRACE_ID))
                    .toList();
            SpanData request = one(trace, "POST /api/purchases", SpanKind.SERVER);
            SpanData publish = one(trace, commands + " publish", SpanKind.PRODUCER);
            SpanData decide = one(trace, commands + " process", SpanKind.CONSUMER);
            SpanData write = one(trace, ledger + " process", SpanKind.CONSUMER);
            assertThat(request.getParentSpanId()).isEqualTo(CLIENT_SPAN);
            assertThat(publish.getParentSpanId()).isEqualTo(request.getSpanId());
            assertThat(decide.getParentSpanId()).isEqualTo(publish.getSpanId());
            assertThat(write.getParentSpanId()).isEqualTo(decide.getSpanId());
            assertThat(decide.getAttributes().get(Tracing.GOODS_ID)).isEqualTo(goods);
            assertThat(decide.getAttributes().asMap().toString()).contains("SUCCESS", "DEDUCTED");
            // a purchase decided by a Lua call: its batch waited for Redis's answer, and the span says how long
            assertThat(decide.getAttributes().get(io.opentelemetry.api.common.AttributeKey.doubleKey("seckill.lua_ms")))
                    .isNotNull()
                    .isPositive();
            assertThat(write.getAttributes().get(Tracing.GOODS_ID)).isEqualTo(goods);
        });
    }

    private static SpanData one(List<SpanData> trace, String name, SpanKind kind) {
        Optional<SpanData> found = trace.stream()
                .filter(s -> s.getName().equals(name) && s.getKind() == kind)
                .findFirst();
        assertThat(found)
                .as(kind + " span '" + name + "' in the trace; spans: " + trace)
                .isPresent();
        return found.get();
    }
}
