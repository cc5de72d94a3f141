package dev.seckill.gateway;

import dev.seckill.contracts.command.CommandRules;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.http.Responder;
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
import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code GET /api/purchases/{requestId}}: the outcome of a purchase from state every gateway instance shares and that
 * survives their restarts ({@link PurchaseStatusStore}); {@code PENDING} only for a purchase accepted and not decided
 * yet; 404 for an id never accepted — and, so that ids cannot be probed, for another buyer's. With
 * {@code Prefer: wait=N} a pending purchase's answer is held until its outcome is known or N seconds pass.
 */
final class StatusRoute implements Handler<RoutingContext> {
    record Parts(
            Vertx vertx,
            MeterRegistry metrics,
            Responder responder,
            Jwt jwt,
            OutcomeView view,
            RecentIds acceptedIds,
            PurchaseStatusStore store,
            Waiters waiters,
            GeneratedIds ids,
            long issuedPendingMs,
            int maxWaitSeconds) {}

    private final Parts parts;

    StatusRoute(Parts parts) {
        this.parts = parts;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        String requestId = ctx.pathParam("requestId");
        if (!CommandRules.validRequestId(requestId)) {
            parts.responder()
                    .reply(
                            ctx,
                            Reply.invalid("requestId must be 1-64 characters of [A-Za-z0-9._:-]", "requestId"),
                            start);
            return;
        }
        Long caller = null;
        if (parts.jwt() != null && ctx.request().getHeader("Authorization") != null) {
            try {
                caller = parts.jwt().verify(RequestHeaders.bearer(ctx));
            } catch (Jwt.Refused e) {
                parts.responder()
                        .reply(
                                ctx,
                                Reply.of(401, new JsonObject().put("error", e.getMessage()), "status_unauthenticated")
                                        .withHeader("WWW-Authenticate", "Bearer"),
                                start);
                return;
            }
        }
        Long who = caller;
        int wait = RequestHeaders.preferredWaitSeconds(ctx, parts.maxWaitSeconds());
        Outcome seen = parts.view().outcome(requestId);
        if (seen != null && surely(requestId, seen)) {
            parts.responder().reply(ctx, answer(requestId, new PurchaseStatus.Decided(seen), who), start);
            return;
        }
        Context context = parts.vertx().getOrCreateContext();
        parts.store()
                .lookup(requestId)
                .whenComplete((status, error) -> context.runOnContext(v -> {
                    if (error != null) {
                        parts.metrics()
                                .counter("seckill_gateway_status_store_errors")
                                .increment();
                    }
                    PurchaseStatus known =
                            known(requestId, error != null ? new PurchaseStatus.Unknown() : status, seen);
                    Reply reply = answer(requestId, known, who);
                    if ((known instanceof PurchaseStatus.Pending || known instanceof PurchaseStatus.Issued)
                            && reply.status() == 200
                            && wait > 0) {
                        Payload p = known.payload();
                        awaitThenReply(ctx, requestId, p == null ? o -> true : p::sameAs, reply, who, wait, start);
                        return;
                    }
                    parts.responder().reply(ctx, reply, start);
                }));
    }

    /**
     * The view's outcome is this id's purchase for sure, without asking the store: the id is one a gateway issued (never
     * a client's), or this gateway accepted it for the purchase the outcome is of. Otherwise the store says which
     * purchase the id stands for: the view keeps the latest outcome of a requestId, whichever purchase it is of.
     */
    private boolean surely(String requestId, Outcome seen) {
        Payload here = parts.acceptedIds().purchase(requestId);
        return here != null ? here.sameAs(seen) : parts.ids().issuedAt(requestId) >= 0;
    }

    /**
     * What the store said, completed by what this gateway knows: an id it accepted, the outcome its view saw (when it is
     * the outcome of the purchase the store holds, or the store holds nothing), or an id a gateway issued.
     */
    private PurchaseStatus known(String requestId, PurchaseStatus stored, Outcome seen) {
        PurchaseStatus known = stored;
        Payload here = parts.acceptedIds().purchase(requestId); // e.g. accepted while Redis did not answer
        if (known instanceof PurchaseStatus.Unknown && here != null) {
            known = new PurchaseStatus.Pending(
                    requestId, here.goodsId(), here.userId(), here.quantity(), Instant.EPOCH);
        }
        if (seen != null
                && !(known instanceof PurchaseStatus.Decided)
                && (known instanceof PurchaseStatus.Unknown || known.payload().sameAs(seen))) {
            return new PurchaseStatus.Decided(seen);
        }
        long issuedAt = known instanceof PurchaseStatus.Unknown ? parts.ids().issuedAt(requestId) : -1;
        if (issuedAt > 0 && System.currentTimeMillis() - issuedAt < parts.issuedPendingMs()) {
            known = new PurchaseStatus.Issued(issuedAt);
        }
        return known;
    }

    /** Long poll: the outcome as soon as it is decided, else the pending reply when the preferred wait is over. */
    private void awaitThenReply(
            RoutingContext ctx,
            String requestId,
            Predicate<Outcome> mine,
            Reply pending,
            Long who,
            int wait,
            long start) {
        String applied = "wait=" + wait;
        parts.waiters()
                .await(
                        requestId,
                        mine,
                        wait * 1000L,
                        o -> parts.responder()
                                .reply(
                                        ctx,
                                        answer(requestId, new PurchaseStatus.Decided(o), who)
                                                .withHeader("Preference-Applied", applied),
                                        start),
                        () -> parts.responder().reply(ctx, pending.withHeader("Preference-Applied", applied), start));
    }

    /** The answer to {@code caller} (null: no token) about a purchase, by what the store knows of it. */
    private Reply answer(String requestId, PurchaseStatus status, Long caller) {
        if (status instanceof PurchaseStatus.Issued) {
            // a gateway issued this id and its outcome is not indexed yet: pending, nothing more to tell
            return new Reply(200, Responder.pending(requestId), "status_pending", Map.of());
        }
        Long owner = status.owner();
        if (owner == null || (caller != null && owner.longValue() != caller)) {
            // never accepted, or another buyer's: the same 404, nothing of whose it is or what it was
            return Reply.of(
                    404,
                    new JsonObject()
                            .put("requestId", requestId)
                            .put(
                                    "error",
                                    "no purchase with this requestId" + (caller != null ? " for this buyer" : "")),
                    "status_not_found");
        }
        if (status instanceof PurchaseStatus.Pending) {
            return new Reply(200, Responder.pending(requestId), "status_pending", Map.of());
        }
        Outcome o = ((PurchaseStatus.Decided) status).outcome();
        if (parts.jwt() != null && caller == null) {
            // no token: the outcome only, never whose it is, what or how many (the buyer's own token gets it all)
            JsonObject body = new JsonObject()
                    .put("requestId", requestId)
                    .put("status", o.outcome().name());
            if (o.reason() != null) body.put("reason", o.reason());
            return Reply.of(200, body, "status_decided");
        }
        return new Reply(200, PurchaseReplies.outcomeBody(o), "status_decided", Map.of());
    }
}
