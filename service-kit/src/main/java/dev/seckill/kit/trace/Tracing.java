package dev.seckill.kit.trace;

import dev.seckill.kit.config.BadSetting;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The services' OpenTelemetry tracing (docs/decisions.md, "Tracing"): off unless {@link
 * SharedSettings#TRACE_OTLP_ENDPOINT} is set, then an SDK exporting over OTLP/HTTP. Context travels as W3C
 * {@code traceparent} — in HTTP headers and, by the OpenTelemetry messaging conventions, in Kafka record headers — from
 * the gateway's accept through the stream's decision to the writer's insert. With tracing off no span is made and the
 * incoming {@code traceparent} is carried on unchanged.
 */
public final class Tracing {
    /** The Kafka record header (and HTTP header) the context travels in. */
    public static final String TRACEPARENT = "traceparent";

    public static final AttributeKey<Long> GOODS_ID = AttributeKey.longKey("seckill.goods_id");
    public static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("seckill.request_id");
    public static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    public static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("messaging.operation.type");

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
    private static volatile OpenTelemetry current = OpenTelemetry.noop();
    private static volatile boolean on;

    private Tracing() {}

    /**
     * Starts tracing for {@code service} as the settings say; what it returns flushes and stops the export (a no-op when
     * tracing is off). A bad endpoint is one readable line ({@link BadSetting}).
     */
    public static AutoCloseable start(Settings settings, String service) {
        String endpoint = settings.get(SharedSettings.TRACE_OTLP_ENDPOINT).trim();
        if (endpoint.isEmpty()) return () -> {};
        OtlpHttpSpanExporter exporter;
        try {
            exporter = OtlpHttpSpanExporter.builder().setEndpoint(endpoint).build();
        } catch (IllegalArgumentException e) {
            throw new BadSetting("SECKILL_TRACE_OTLP_ENDPOINT must be an http(s) URL, got '" + endpoint + "'");
        }
        double ratio;
        try {
            ratio = Double.parseDouble(
                    settings.get(SharedSettings.TRACE_SAMPLE_RATIO).trim());
        } catch (NumberFormatException e) {
            ratio = -1;
        }
        if (!(ratio >= 0 && ratio <= 1))
            throw new BadSetting("SECKILL_TRACE_SAMPLE_RATIO must be a number from 0 to 1, got '"
                    + settings.get(SharedSettings.TRACE_SAMPLE_RATIO) + "'");
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(ratio)))
                .setResource(Resource.getDefault()
                        .merge(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), service))))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
                .build();
        use(OpenTelemetrySdk.builder().setTracerProvider(provider).build());
        return () -> {
            off();
            provider.close(); // exports what is still buffered
        };
    }

    /** Traces with {@code openTelemetry} from now on (an in-process pipeline's, a test's in-memory exporter). */
    public static void use(OpenTelemetry openTelemetry) {
        current = openTelemetry;
        on = openTelemetry != OpenTelemetry.noop();
    }

    /** Back to no tracing. */
    public static void off() {
        use(OpenTelemetry.noop());
    }

    /** Whether spans are made: callers skip the work of building one when not. */
    public static boolean on() {
        return on;
    }

    public static Tracer tracer(String scope) {
        return current.getTracer(scope);
    }

    /** The context a record's {@code traceparent} names (the root context when it has none, or a malformed one). */
    public static Context from(Headers headers) {
        return W3C.extract(Context.root(), headers, KAFKA_GETTER);
    }

    /** The span a record's {@code traceparent} names (the hop that sent it); invalid when none: for the logs' MDC. */
    public static SpanContext spanOf(Headers headers) {
        return Span.fromContext(from(headers)).getSpanContext();
    }

    /** The context an HTTP {@code traceparent} value names (the root context when absent or malformed). */
    public static Context fromTraceparent(String traceparent) {
        if (traceparent == null) return Context.root();
        return W3C.extract(Context.root(), Map.of(TRACEPARENT, traceparent.trim()), MAP_GETTER);
    }

    /** Puts {@code span}'s context in the record's headers as {@code traceparent}, replacing the one it had. */
    public static void into(Span span, Headers headers) {
        SpanContext sc = span.getSpanContext();
        if (!sc.isValid()) return;
        headers.remove(TRACEPARENT);
        headers.remove("tracestate");
        W3C.inject(Context.root().with(span), headers, KAFKA_SETTER);
    }

    private static final TextMapGetter<Headers> KAFKA_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers carrier) {
            List<String> keys = new ArrayList<>();
            for (Header h : carrier) keys.add(h.key());
            return keys;
        }

        @Override
        public String get(Headers carrier, String key) {
            if (carrier == null) return null;
            Header h = carrier.lastHeader(key);
            return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        }
    };

    private static final TextMapSetter<Headers> KAFKA_SETTER =
            (carrier, key, value) -> carrier.add(key, value.getBytes(StandardCharsets.UTF_8));

    private static final TextMapGetter<Map<String, String>> MAP_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };
}
