package dev.seckill.gateway;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.http.KafkaSender;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.http.Responder;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.GeneratedIds;
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
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

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
            int maxWaitSeconds) {}

    private final Parts parts;
    private final List<DoorCheck> checks;

    PurchaseRoute(Parts parts) {
        this.parts = parts;
        this.checks = List.of(
                a -> DoorChecks.rateLimit(parts, a),
                this::requestIdOwner,
                a -> DoorChecks.saleWindow(parts, a),
                a -> DoorChecks.soldOut(parts, a));
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
        Long buyer = null;
        if (parts.jwt() != null) {
            try {
                buyer = parts.jwt().verify(RequestHeaders.bearer(ctx));
            } catch (Jwt.Refused e) {
                answer(
                        ctx,
                        Reply.of(401, new JsonObject().put("error", e.getMessage()), "unauthenticated")
                                .withHeader("WWW-Authenticate", "Bearer"),
                        start);
                return;
            }
        }
        PurchaseRequest req;
        try {
            req = PurchaseRequest.parse(ctx.body().asString(), buyer);
        } catch (PurchaseRequest.Invalid e) {
            answer(ctx, Reply.invalid(e.getMessage(), e.field), start);
            return;
        } catch (PurchaseRequest.Forbidden e) {
            answer(
                    ctx,
                    Reply.of(403, new JsonObject().put("error", e.getMessage()).put("field", "userId"), "forbidden"),
                    start);
            return;
        }
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

    /** A requestId this gateway accepted recently: the owner's retry is 202 again, another buyer's is 409. */
    private Reply requestIdOwner(Attempt a) {
        if (a.request().requestId() == null) return null;
        Long owner = parts.acceptedIds().owner(a.request().requestId());
        if (owner == null) return null;
        if (owner != a.request().userId()) return conflict(a.request().requestId());
        if (a.waitSeconds() > 0) {
            awaitOutcome(a, a.request().requestId(), "retry_accepted");
            return Reply.LATER;
        }
        return new Reply(202, Responder.pending(a.request().requestId()), "retry_accepted", java.util.Map.of());
    }

    private static Reply conflict(String requestId) {
        // the stream would take it for a retry of the other buyer's purchase: this buyer would get 202 and no outcome
        return Reply.of(
                409,
                new JsonObject()
                        .put(
                                "error",
                                "requestId " + requestId + " is already used by another purchase; "
                                        + "choose a new requestId")
                        .put("field", "requestId")
                        .put("requestId", requestId),
                "request_id_conflict");
    }

    /**
     * A client-chosen requestId is claimed in the status store before its command is sent: another buyer's claim is
     * 409 before anything reaches Kafka. When Redis cannot answer, the purchase goes on (Kafka and the stream's dedupe
     * hold the truth; only the cross-instance 409 and the status entry are lost) and the miss is counted.
     */
    private void claimThenSend(Attempt a) {
        PurchaseRequest r = a.request();
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
                    PurchaseStatusStore.Claim claim = claimed == null ? null : claimed.claim();
                    if (claim == PurchaseStatusStore.Claim.OTHER_BUYER) {
                        answer(a.ctx(), conflict(r.requestId()), a.start());
                    } else if (claim == PurchaseStatusStore.Claim.SAME_BUYER
                            && a.waitSeconds() > 0
                            && claimed.previous() instanceof PurchaseStatus.Decided d) {
                        // the owner's retry of a decided purchase: its outcome now (a re-send would emit nothing to
                        // wait for)
                        answer(
                                a.ctx(),
                                new Reply(
                                        200,
                                        outcomeBody(d.outcome()),
                                        "decided",
                                        java.util.Map.of("Preference-Applied", "wait=" + a.waitSeconds())),
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
                            if (r.requestId() != null) parts.acceptedIds().add(requestId, r.userId());
                            if (a.waitSeconds() > 0) awaitOutcome(a, requestId, "accepted");
                            else
                                answer(
                                        a.ctx(),
                                        new Reply(202, Responder.pending(requestId), "accepted", java.util.Map.of()),
                                        a.start());
                        },
                        error -> {
                            logWithTrace(a.traceId(), "Kafka did not take {}: {}", requestId, error.getMessage());
                            answer(a.ctx(), unavailable(requestId, error), a.start());
                        });
    }

    /** Holds the reply until the outcome is known (200 with it) or the preferred wait is over (202 PENDING). */
    private void awaitOutcome(Attempt a, String requestId, String kind) {
        String applied = "wait=" + a.waitSeconds();
        parts.waiters()
                .await(
                        requestId,
                        a.waitSeconds() * 1000L,
                        o -> answer(
                                a.ctx(),
                                new Reply(
                                        200,
                                        outcomeBody(o),
                                        "decided",
                                        java.util.Map.of("Preference-Applied", applied)),
                                a.start()),
                        () -> answer(
                                a.ctx(),
                                new Reply(
                                        202,
                                        Responder.pending(requestId),
                                        kind,
                                        java.util.Map.of("Preference-Applied", applied)),
                                a.start()));
    }

    /** The outcome as {@code GET} shows it to its owner: every field of the outcome, and {@code status}. */
    static String outcomeBody(Outcome o) {
        return new JsonObject(PurchaseStatus.encode(o))
                .put("status", o.outcome().name())
                .encode();
    }

    /**
     * 503 for a purchase Kafka did not acknowledge. A timed-out send may still have been appended (and then decided),
     * so the body carries the requestId, the gateway's own when the client sent none: the buyer can look it up and retry
     * with it, and a retry with the same requestId is decided at most once. {@code Retry-After} says when to try again.
     */
    private static Reply unavailable(String requestId, Throwable cause) {
        String error = cause instanceof RuntimeException && !(cause instanceof org.apache.kafka.common.KafkaException)
                ? "Kafka cannot take the command now"
                : "Kafka did not acknowledge the command in time";
        return Reply.of(
                        503,
                        new JsonObject()
                                .put("error", error)
                                .put("reason", cause.getClass().getSimpleName())
                                .put("requestId", requestId)
                                .put("status", "UNKNOWN")
                                .put("retryAfterSeconds", RETRY_AFTER_SECONDS)
                                .put(
                                        "hint",
                                        "the command may still have been accepted: retry with this requestId, or look it up"),
                        "kafka_unavailable")
                .withHeader("Retry-After", Long.toString(RETRY_AFTER_SECONDS));
    }

    private void answer(RoutingContext ctx, Reply reply, long start) {
        parts.responder().reply(ctx, reply, start);
    }

    private static void logWithTrace(String traceId, String format, Object... args) {
        MDC.put("traceId", traceId);
        try {
            LOG.warn(format, args);
        } finally {
            MDC.remove("traceId");
        }
    }
}
