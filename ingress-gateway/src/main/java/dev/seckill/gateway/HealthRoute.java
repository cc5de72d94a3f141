package dev.seckill.gateway;

import dev.seckill.kit.warmup.Readiness;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import redis.clients.jedis.UnifiedJedis;

/** {@code GET /health}: 200 UP when Kafka and Redis answer and the gateway is warm; 503 with {@code status} DOWN, or {@code warming} before that. */
final class HealthRoute implements Handler<RoutingContext> {
    private final Vertx vertx;
    private final OutcomeView view;
    private final UnifiedJedis redis;
    private final Readiness readiness;

    HealthRoute(Vertx vertx, OutcomeView view, UnifiedJedis redis, Readiness readiness) {
        this.vertx = vertx;
        this.view = view;
        this.redis = redis;
        this.readiness = readiness;
    }

    @Override
    public void handle(RoutingContext ctx) {
        boolean kafka = view.healthy(5000);
        vertx.executeBlocking(() -> {
                    try {
                        return "PONG".equalsIgnoreCase(redis.ping());
                    } catch (RuntimeException e) {
                        return false;
                    }
                })
                .onComplete(r -> {
                    boolean redisUp = r.succeeded() && Boolean.TRUE.equals(r.result());
                    boolean up = kafka && redisUp && readiness.ready();
                    String status = !(kafka && redisUp) ? "DOWN" : readiness.state().label;
                    JsonObject body = new JsonObject()
                            .put("kafka", kafka ? "UP" : "DOWN")
                            .put("redis", redisUp ? "UP" : "DOWN")
                            .put("status", status);
                    ctx.response()
                            .setStatusCode(up ? 200 : 503)
                            .putHeader("Content-Type", "application/json")
                            .end(body.encode());
                });
    }
}
