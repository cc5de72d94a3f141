package dev.seckill.gateway.http;

import dev.seckill.contracts.command.CommandRules;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Writes every answer of the gateway and counts it: {@code seckill_gateway_requests{status,kind}} and the latency from
 * the request's arrival, {@code seckill_gateway_accept_latency{kind}}. Every route answers through here, so no answer
 * goes uncounted.
 */
public final class Responder {
    /** The meters of one (status, kind) of reply, looked up once rather than on every request. */
    private record Meters(Counter requests, Timer latency) {}

    private final MeterRegistry metrics;
    private final Map<String, Meters> meters = new ConcurrentHashMap<>();

    public Responder(MeterRegistry metrics) {
        this.metrics = metrics;
    }

    /**
     * Where a route keeps the requestId the request named (its body's), once it read one: a problem answered to the
     * request carries it ({@link #reply}).
     */
    public static final String REQUEST_ID = "seckill.requestId";

    /**
     * Writes the reply unless the response already ended (a waiter answered by a shutdown, say). A problem carries the
     * {@code requestId} the request named — in its body ({@link #REQUEST_ID}) or its path — when it does not already.
     */
    public void reply(RoutingContext ctx, Reply reply, long startNanos) {
        if (ctx.response().ended()) return;
        ctx.response().putHeader("Content-Type", "application/json"); // a problem's reply says application/problem+json
        reply.headers().forEach(ctx.response()::putHeader);
        ctx.response().setStatusCode(reply.status()).end(withRequestId(ctx, reply));
        int status = reply.status();
        Meters m = meters.computeIfAbsent(
                status + "/" + reply.kind(),
                k -> new Meters(
                        metrics.counter(
                                "seckill_gateway_requests", "status", Integer.toString(status), "kind", reply.kind()),
                        Timer.builder("seckill_gateway_accept_latency")
                                .tag("kind", reply.kind())
                                .publishPercentileHistogram()
                                .register(metrics)));
        m.requests().increment();
        m.latency().record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    /** The reply's body, a problem's with the requestId its request named added. */
    private static String withRequestId(RoutingContext ctx, Reply reply) {
        if (!Problem.MEDIA_TYPE.equals(reply.headers().get("Content-Type"))) return reply.json();
        String requestId = ctx.get(REQUEST_ID);
        if (requestId == null) {
            String inPath = ctx.pathParam("requestId");
            requestId = inPath != null && CommandRules.validRequestId(inPath) ? inPath : null;
        }
        String json = reply.json();
        if (requestId == null || json.contains("\"requestId\":") || !json.endsWith("}")) return json;
        // appended, not re-encoded: a 429 under a flood costs a string copy; a valid requestId needs no escaping
        return json.substring(0, json.length() - 1) + ",\"requestId\":\"" + requestId + "\"}";
    }
}
