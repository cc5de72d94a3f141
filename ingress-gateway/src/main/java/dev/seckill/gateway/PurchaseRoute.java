package dev.seckill.gateway;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.http.KafkaSender;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.http.Responder;
import dev.seckill.gateway.http.TraceLog;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.gateway.status.Payload;
import dev.seckill.gateway.status.PurchaseStatus;
import dev.seckill.gateway.status.PurchaseStatusStore;
import dev.seckill.gateway.status.Waiters;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/purchases}: the door. Authentication and parsing first (they make the request), then the checks
 * in {@link #checks} in order, each able to answer and stop the request there; a request that passes them all is
 * sent to {@code <prefix>commands} and answered 202 once Kafka acknowledged it — or, with {@code Prefer: wait=N},
 * 200 with its outcome when that is known within N seconds.
 */
final class PurchaseRoute implements Handler<RoutingContext> {
    private static final Logger LOG = LoggerFactory.getLogger(PurchaseRoute.class);
    /** Retry-After on a 503: a broker failover or a full producer buffer is typically over within a second or two. */
    static final long RETRY_AFTER_SECONDS = 1;

    /** A request that passed authentication and parsing, facing the rest of the door. */
    record Attempt(RoutingContext ctx, long start, String traceId, PurchaseRequest request, int waitSeconds) {}

    /** One check at the door: a reply stops the request there, null lets it through. */
    interface DoorCheck {
        Reply check(Attempt a);
    }

    /** What the route needs from the gateway, wired once by {@link GatewayApp}. */
    record Parts(
            Vertx vertx,
            Topics topics,
            Clock clock,
            MeterRegistry metrics,
            Responder responder,
            Jwt jwt,
            RateLimiter limiter,
            RecentIds acceptedIds,
            SaleWindows windows,
            OutcomeView view,
            KafkaSender sender,
            PurchaseStatusStore store,
            Waiters waiters,
            GeneratedIds ids,
            BooleanSupplier accepting,
            int maxWaitSeconds,
            int maxWaiters) {}

    private final Parts parts;
    private final List<DoorCheck> checks;

    PurchaseRoute(Parts parts) {
        this.parts = parts;
        this.checks = List.of(
                a -> DoorChecks.rateLimit(parts, a),
                this::requestIdOwner,
                a -> DoorChecks.saleWindow(parts, a),
                a -> DoorChecks.soldOut(parts, a, this::claimThenSend));
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        String traceId = RequestHeaders.traceId(ctx);
        ctx.response().putHeader("X-Trace-Id", traceId);
        if (!parts.accepting().getAsBoolean()) {
            answer(
                    ctx,
                    Reply.of(503, new JsonObject().put("error", "gateway is shutting down"), "shutting_down"),
                    start);
            return;
        }
        PurchaseIntake.Read read = PurchaseIntake.read(parts.jwt(), ctx);
        if (read.refused() != null) {
            answer(ctx, read.refused(), start);
            return;
        }
        PurchaseRequest req = read.request();
        Attempt a =
                new Attempt(ctx, start, traceId, req, RequestHeaders.preferredWaitSeconds(ctx, parts.maxWaitSeconds()));
        for (DoorCheck check : checks) {
            Reply stop = check.check(a);
            if (stop != null) {
                answer(ctx, stop, start);
                return;
            }
        }
        if (req.requestId() != null) claimThenSend(a);
        else send(a, parts.ids().next(parts.clock().millis()));
    }

    /**
     * A requestId this gateway accepted recently: the same purchase again is the owner's retry (202 again), another
     * purchase under it is refused ({@link PurchaseReplies#reused}).
     */
    private Reply requestIdOwner(Attempt a) {
        String requestId = a.request().requestId();
        if (requestId == null) return null;
        Payload held = parts.acceptedIds().purchase(requestId);
        if (held == null) return null;
        String differs = held.differingField(a.request().payload());
        if (differs != null) return PurchaseReplies.reused(requestId, differs);
        if (a.waitSeconds() > 0) {
            awaitOutcome(a, requestId, "retry_accepted");
            return Reply.LATER;
        }
        return new Reply(202, Responder.pending(requestId), "retry_accepted", Map.of());
    }

    /**
     * A client-chosen requestId is claimed in the status store before its command is sent, the claim carrying the
     * purchase: an id held for another purchase is refused before anything reaches Kafka. When Redis cannot answer,
     * the purchase goes on (Kafka and the stream's dedupe by goods and requestId hold the truth; only the
     * cross-instance refusal and the status entry are lost) and the miss is counted.
     */
    private void claimThenSend(Attempt a) {
        PurchaseRequest r = a.request();
        if (parts.windows().knownWithoutSale(r.goodsId(), parts.clock().millis())) {
            send(a, r.requestId()); // no sale: nothing to guard, and a flood of made-up goods writes nothing
            return;
        }
        Context context = parts.vertx().getOrCreateContext();
        parts.store()
                .claim(new PurchaseStatus.Pending(
                        r.requestId(),
                        r.goodsId(),
                        r.userId(),
                        r.quantity(),
                        parts.clock().instant()))
                .whenComplete((claimed, error) -> context.runOnContext(v -> {
                    if (error != null)
                        parts.metrics()
                                .counter("seckill_gateway_status_store_errors")
                                .increment();
                    if (claimed != null && claimed.differs() != null) {
                        answer(a.ctx(), PurchaseReplies.reused(r.requestId(), claimed.differs()), a.start());
                    } else if (claimed != null
                            && a.waitSeconds() > 0
                            && claimed.previous() instanceof PurchaseStatus.Decided d) {
                        // the retry of a decided purchase: its outcome now (a re-send would emit nothing to wait for)
                        answer(
                                a.ctx(),
                                new Reply(
                                        200,
                                        PurchaseReplies.outcomeBody(d.outcome()),
                                        "decided",
                                        Map.of("Preference-Applied", "wait=" + a.waitSeconds())),
                                a.start());
                    } else {
                        send(a, r.requestId());
                    }
                }));
    }

    private void send(Attempt a, String requestId) {
        PurchaseRequest r = a.request();
        Purchase command = new Purchase(
                requestId, r.goodsId(), r.userId(), r.quantity(), parts.clock().instant());
        ProducerRecord<String, byte[]> record =
                new ProducerRecord<>(parts.topics().commands(), command.key(), CommandCodec.encode(command));
        TraceHeaders.put(record.headers(), a.traceId());
        // nothing is written for the status on this path: the index takes the purchase from the commands topic, and a
        // GET in between knows the id as one a gateway issued (GeneratedIds) or claimed (claimThenSend)
        parts.sender()
                .send(
                        record,
                        () -> {
                            if (r.requestId() != null) parts.acceptedIds().add(requestId, r.payload());
                            if (a.waitSeconds() > 0) awaitOutcome(a, requestId, "accepted");
                            else
                                answer(
                                        a.ctx(),
                                        new Reply(202, Responder.pending(requestId), "accepted", Map.of()),
                                        a.start());
                        },
                        error -> {
                            TraceLog.warn(LOG, a.traceId(), "Kafka did not take {}: {}", requestId, error.getMessage());
                            answer(a.ctx(), PurchaseReplies.unavailable(requestId, error), a.start());
                        });
    }

    /**
     * Holds the reply until the outcome of this purchase is known (200 with it) or the preferred wait is over (202
     * PENDING); an outcome of another purchase under the same requestId is not this one's answer.
     */
    private void awaitOutcome(Attempt a, String requestId, String kind) {
        if (parts.waiters().waiting() >= parts.maxWaiters()) { // accepted all the same: answered now, not held
            answer(a.ctx(), new Reply(202, Responder.pending(requestId), kind, Map.of()), a.start());
            return;
        }
        String applied = "wait=" + a.waitSeconds();
        parts.waiters()
                .await(
                        requestId,
                        a.request().payload()::sameAs,
                        a.waitSeconds() * 1000L,
                        o -> answer(
                                a.ctx(),
                                new Reply(
                                        200,
                                        PurchaseReplies.outcomeBody(o),
                                        "decided",
                                        Map.of("Preference-Applied", applied)),
                                a.start()),
                        () -> answer(
                                a.ctx(),
                                new Reply(
                                        202, Responder.pending(requestId), kind, Map.of("Preference-Applied", applied)),
                                a.start()));
    }

    private void answer(RoutingContext ctx, Reply reply, long start) {
        parts.responder().reply(ctx, reply, start);
    }
}
