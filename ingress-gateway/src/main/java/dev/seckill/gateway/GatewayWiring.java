package dev.seckill.gateway;

import dev.seckill.contracts.Topics;
import dev.seckill.gateway.auth.BuyerTokens;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.door.PurchaseRoute;
import dev.seckill.gateway.door.RecentIds;
import dev.seckill.gateway.door.SaleWindows;
import dev.seckill.gateway.http.InFlightRequests;
import dev.seckill.gateway.http.JsonBodies;
import dev.seckill.gateway.http.Problem;
import dev.seckill.gateway.http.RequestRecordSender;
import dev.seckill.gateway.http.Responder;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.limit.ReadLimiter;
import dev.seckill.gateway.limit.RefusalBudget;
import dev.seckill.gateway.readside.OutcomeView;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.gateway.status.PurchaseStatusStore;
import dev.seckill.gateway.status.PurchasesListRoute;
import dev.seckill.gateway.status.StatusReads;
import dev.seckill.gateway.status.StatusRoute;
import dev.seckill.gateway.status.Waiters;
import dev.seckill.gateway.warmup.GatewayWarmup;
import dev.seckill.kit.trace.TraceMdc;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts the purchase routes are made of, wired once by {@link GatewayApp} and read by every route as they are: the
 * gateway's event loops, producer, clock, waiters, limits ({@code config}), and what a purchase meets — the topics,
 * counters, token key, rate limits, refused-token budget, accepted ids, sale windows, status store, issued ids and outcome view, and the requests in flight. The warm-up
 * ({@link GatewayWarmup}) wires a second set over the same event loops and producer, with its own topics, keys, token
 * key and counters.
 */
public record GatewayWiring(
        Vertx vertx,
        KafkaProducer<String, byte[]> producer,
        Clock clock,
        Waiters waiters,
        BooleanSupplier accepting,
        GatewaySettings config,
        Topics topics,
        MeterRegistry metrics,
        Jwt jwt,
        RateLimiter limiter,
        ReadLimiter readLimiter,
        RefusalBudget refusals,
        RecentIds acceptedIds,
        SaleWindows windows,
        PurchaseStatusStore store,
        GeneratedIds ids,
        OutcomeView view,
        InFlightRequests inFlight) {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayWiring.class);

    /**
     * The purchase routes over these parts: {@code POST /api/purchases} ({@link PurchaseRoute}, through the
     * {@code Door}), {@code GET /api/purchases/{requestId}} ({@link StatusRoute}) and {@code GET /api/purchases}
     * ({@link PurchasesListRoute}).
     */
    public Router routes() {
        Router router = Router.router(vertx);
        router.route().handler(inFlight); // first: every request the public port takes, whichever route answers it
        Responder responder = new Responder(metrics);
        RequestRecordSender sender = new RequestRecordSender(vertx, producer, metrics);
        BuyerTokens tokens = jwt == null ? null : new BuyerTokens(jwt, refusals, config.clientAddressHeader(), metrics);
        router.post("/api/purchases")
                .handler(JsonBodies.jsonOnly(responder))
                .handler(JsonBodies.bounded(config.bodyLimit()))
                .handler(new PurchaseRoute(this, responder, sender, tokens))
                .failureHandler(JsonBodies.tooLarge(responder));
        StatusReads reads = new StatusReads(jwt, tokens, readLimiter, config.clientAddressHeader(), metrics);
        router.get("/api/purchases/:requestId").handler(new StatusRoute(this, responder, reads));
        router.get("/api/purchases").handler(new PurchasesListRoute(this, responder, reads));
        // what no route answers is a problem too: a path the API does not have, a method its path does not take, a
        // failure no handler caught (docs/contracts.md, "Problem types")
        router.errorHandler(404, ctx -> unrouted(responder, ctx, Problem.NO_SUCH_PATH, "no_such_path"));
        router.errorHandler(405, ctx -> unrouted(responder, ctx, Problem.METHOD_NOT_ALLOWED, "method_not_allowed"));
        router.errorHandler(500, ctx -> unrouted(responder, ctx, Problem.INTERNAL, "internal"));
        return router;
    }

    /**
     * The gateway is closing (it accepts no purchase by now): every waiter answered (202 PENDING), then every request the
     * routes took before waited for, 5 s at most — a purchase between its send and its acknowledgment is answered as
     * it comes back, not cut off by the servers' close.
     */
    public void closing() {
        waiters.expireAll();
        try {
            if (!inFlight.awaitNone(Duration.ofSeconds(5)))
                LOG.warn("closing with {} requests unanswered after 5 s", inFlight.open());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void unrouted(Responder responder, RoutingContext ctx, Problem problem, String kind) {
        // an error handler for 500 keeps Vert.x from logging the failure: this one does
        if (problem == Problem.INTERNAL)
            try (TraceMdc ignored = TraceMdc.put(ctx.response().headers().get("X-Trace-Id"), null)) {
                LOG.error("{} {} failed", ctx.request().method(), ctx.request().path(), ctx.failure());
            }
        String detail = problem == Problem.INTERNAL
                ? "the gateway failed to answer " + ctx.request().method() + " "
                        + ctx.request().path() + "; retry, or see its log"
                : ctx.request().method() + " " + ctx.request().path()
                        + " is not in the API (its document: /openapi.yaml on the admin port)";
        responder.reply(ctx, problem.reply(detail, kind), System.nanoTime());
    }
}
