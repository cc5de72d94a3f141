package dev.seckill.gateway.http;

import dev.seckill.kit.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.vertx.ext.web.RoutingContext;
import org.apache.kafka.common.header.Headers;

/**
 * The gateway's spans of one accepted command (docs/decisions.md, "Tracing"): the request's SERVER span, a child of
 * the client's {@code traceparent} when it sent one, and its PRODUCER span, whose context the command carries in its
 * {@code traceparent} header — by the OpenTelemetry messaging conventions. Both end when Kafka took the command or
 * gave up. {@link #NONE} when tracing is off.
 */
public final class AcceptSpans {
    public static final AcceptSpans NONE = new AcceptSpans(null, null);

    private final Span request;
    private final Span publish;

    private AcceptSpans(Span request, Span publish) {
        this.request = request;
        this.publish = publish;
    }

    /** Starts the spans of a command about to be sent to {@code topic} and puts their context in its headers. */
    public static AcceptSpans start(
            RoutingContext ctx, String route, String topic, long goodsId, String requestId, Headers headers) {
        if (!Tracing.on()) return NONE;
        Tracer tracer = Tracing.tracer("dev.seckill.gateway");
        Span request = tracer.spanBuilder("POST " + route)
                .setSpanKind(SpanKind.SERVER)
                .setParent(Tracing.fromTraceparent(ctx.request().getHeader(Tracing.TRACEPARENT)))
                .setAttribute("http.request.method", "POST")
                .setAttribute("http.route", route)
                .setAttribute(Tracing.GOODS_ID, goodsId)
                .setAttribute(Tracing.REQUEST_ID, requestId)
                .startSpan();
        Span publish = tracer.spanBuilder(topic + " publish")
                .setSpanKind(SpanKind.PRODUCER)
                .setParent(Context.root().with(request))
                .setAttribute(Tracing.MESSAGING_SYSTEM, "kafka")
                .setAttribute(Tracing.DESTINATION, topic)
                .setAttribute(Tracing.OPERATION, "send")
                .startSpan();
        Tracing.into(publish, headers);
        return new AcceptSpans(request, publish);
    }

    /**
     * The trace id the command's {@code traceId} header and the order row carry: {@code given} (the client's
     * {@code X-Trace-Id}, or its {@code traceparent}'s — the spans' own then too), unless the gateway made it up and
     * tracing is on: then the spans' own, so the row names the trace.
     */
    public String traceId(RoutingContext ctx, String given) {
        if (publish == null || given.equals(ctx.request().getHeader("X-Trace-Id"))) return given;
        return publish.getSpanContext().getTraceId();
    }

    /** The request span, for the log lines about this request; invalid with tracing off. */
    public SpanContext span() {
        return request == null ? SpanContext.getInvalid() : request.getSpanContext();
    }

    public void acked() {
        if (publish == null) return;
        publish.end();
        request.end();
    }

    public void failed(Throwable error) {
        if (publish == null) return;
        publish.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
        publish.end();
        request.setStatus(StatusCode.ERROR, "Kafka did not take the command");
        request.end();
    }
}
