package dev.seckill.gateway;

import dev.seckill.contracts.Topics;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.http.JsonBodies;
import dev.seckill.gateway.http.KafkaSender;
import dev.seckill.gateway.http.Responder;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.limit.ReadLimiter;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.gateway.status.PurchaseStatusStore;
import dev.seckill.gateway.status.Waiters;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * What a purchase meets at one door: the real one, or the warm-up's ({@link GatewayWarmup}: its own topic, keys, token
 * key, counters); {@link #routes} makes its purchase routes (POST and GET) over the gateway's shared parts.
 */
record Door(
        Topics topics,
        MeterRegistry metrics,
        Jwt jwt,
        RateLimiter limiter,
        ReadLimiter readLimiter,
        RecentIds acceptedIds,
        SaleWindows windows,
        PurchaseStatusStore store,
        GeneratedIds ids,
        OutcomeView view) {

    /** What every door of a gateway shares: its event loops, producer, clock, waiters, and its limits. */
    record Shared(
            Vertx vertx,
            KafkaProducer<String, byte[]> producer,
            Clock clock,
            Waiters waiters,
            BooleanSupplier accepting,
            int maxWait,
            int maxWaiters,
            long pendingBoundMs,
            String addressHeader,
            int bodyLimit) {}

    Router routes(Shared s) {
        Router router = Router.router(s.vertx());
        Responder responder = new Responder(metrics());
        KafkaSender sender = new KafkaSender(s.vertx(), s.producer(), metrics());
        router.post("/api/purchases")
                .handler(JsonBodies.jsonOnly(responder))
                .handler(JsonBodies.bounded(s.bodyLimit()))
                .handler(new PurchaseRoute(new PurchaseRoute.Parts(
                        s.vertx(),
                        topics(),
                        s.clock(),
                        metrics(),
                        responder,
                        jwt(),
                        limiter(),
                        acceptedIds(),
                        windows(),
                        view(),
                        sender,
                        store(),
                        s.waiters(),
                        ids(),
                        s.accepting(),
                        s.maxWait(),
                        s.maxWaiters())))
                .failureHandler(JsonBodies.tooLarge(responder));
        StatusReads reads = new StatusReads(jwt(), readLimiter(), s.addressHeader(), metrics());
        router.get("/api/purchases/:requestId")
                .handler(new StatusRoute(new StatusRoute.Parts(
                        s.vertx(),
                        metrics(),
                        responder,
                        reads,
                        view(),
                        acceptedIds(),
                        store(),
                        s.waiters(),
                        ids(),
                        s.pendingBoundMs(),
                        s.maxWait(),
                        s.maxWaiters())));
        router.get("/api/purchases")
                .handler(new PurchasesListRoute(s.vertx(), metrics(), responder, reads, store(), s.pendingBoundMs()));
        return router;
    }
}
