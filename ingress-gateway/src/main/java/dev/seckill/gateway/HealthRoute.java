package dev.seckill.gateway;

import dev.seckill.gateway.readside.OutcomeView;
import dev.seckill.kit.warmup.Readiness;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code GET /health} (readiness): 200 UP when Kafka answers and the gateway is warm; 503 with {@code status} DOWN, or
 * {@code warming} before that. Redis is reported, not required: purchases go on without it (the door's claims and
 * window lookups degrade, the stream decides), so a Redis outage must not take every gateway out of its Service.
 * {@code GET /live} (liveness): 200 while the event loop answers, whatever Kafka or Redis do.
 */
final class HealthRoute implements Handler<RoutingContext> {
    private final Vertx vertx;
    private final OutcomeView view;
    private final UnifiedJedis redis;
    private final Readiness readiness;
    private static final long PING_EVERY_MS = 1000;
    /** Redis as the last background ping found it. */
    private volatile boolean redisUp;

    private final long pingTimer;
    /** The ping on a worker now, if any: {@link #close} waits for it while the event loops still run. */
    private volatile Future<Boolean> pinging = Future.succeededFuture(true);

    private boolean closed;

    HealthRoute(Vertx vertx, OutcomeView view, UnifiedJedis redis, Readiness readiness) {
        this.vertx = vertx;
        this.view = view;
        this.redis = redis;
        this.readiness = readiness;
        // Redis is pinged in the background, never while a probe waits: an unreachable Redis (a lost node, not a
        // refused
        // connection) holds a ping for its socket timeout, longer than a kubelet's probe timeout (1 s)
        pingTimer = vertx.setPeriodic(1, PING_EVERY_MS, id -> {
            synchronized (this) {
                if (closed) return; // a tick that ran as close() cancelled the timer
                pinging = vertx.executeBlocking(this::ping, false);
            }
            pinging.onComplete(r -> redisUp = r.succeeded() && Boolean.TRUE.equals(r.result()));
        });
    }

    /**
     * Stops the pings, and waits (a second at most) for one on a worker: before Redis and Vert.x close, so no ping
     * ends on event loops that are gone (Netty's "event executor terminated", printed as a stack trace at exit).
     */
    void close() {
        Future<Boolean> last;
        synchronized (this) {
            closed = true;
            vertx.cancelTimer(pingTimer);
            last = pinging;
        }
        try {
            last.toCompletionStage().toCompletableFuture().get(1, TimeUnit.SECONDS);
        } catch (Exception stillPinging) {
            // a Redis that holds the ping past a second: closing Redis next ends it
        }
    }

    private boolean ping() {
        try {
            return "PONG".equalsIgnoreCase(redis.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Serves {@code /health} and {@code /live} on {@code router}. */
    void mountOn(Router router) {
        router.get("/health").handler(this);
        router.get("/live")
                .handler(ctx -> ctx.response()
                        .putHeader("Content-Type", "application/json")
                        .end("{\"status\":\"ALIVE\"}"));
    }

    @Override
    public void handle(RoutingContext ctx) {
        boolean kafka = view.healthy(5000);
        boolean up = kafka && readiness.ready();
        JsonObject body = new JsonObject()
                .put("kafka", kafka ? "UP" : "DOWN")
                .put("redis", redisUp ? "UP" : "DOWN")
                .put("status", !kafka ? "DOWN" : readiness.state().label);
        ctx.response()
                .setStatusCode(up ? 200 : 503)
                .putHeader("Content-Type", "application/json")
                .end(body.encode());
    }
}
