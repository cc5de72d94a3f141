package dev.seckill.gateway.http;

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

    /** Writes the reply unless the response already ended (a waiter answered by a shutdown, say). */
    public void reply(RoutingContext ctx, Reply reply, long startNanos) {
        if (ctx.response().ended()) return;
        ctx.response().putHeader("Content-Type", "application/json"); // a problem's reply says application/problem+json
        reply.headers().forEach(ctx.response()::putHeader);
        ctx.response().setStatusCode(reply.status()).end(reply.json());
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
}
