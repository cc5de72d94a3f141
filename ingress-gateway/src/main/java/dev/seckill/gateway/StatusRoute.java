package dev.seckill.gateway;

import dev.seckill.contracts.command.CommandRules;
import dev.seckill.contracts.outcome.Outcome;
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
            StatusReads reads,
            OutcomeView view,
            RecentIds acceptedIds,
            PurchaseStatusStore store,
            Waiters waiters,
            GeneratedIds ids,
            long pendingBoundMs,
            int maxWaitSeconds,
            int maxWaiters) {}

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
        StatusReads.Admitted admitted = parts.reads().admit(ctx);
        if (admitted.stop() != null) {
            parts.responder().reply(ctx, admitted.stop(), start);
            return;
        }
        Long who = admitted.caller();
        int wait = RequestHeaders.preferredWaitSeconds(ctx, parts.maxWaitSeconds());
        Outcome seen = parts.view().outcome(requestId);
        if (seen != null && surely(requestId, seen)) {
            parts.responder().reply(ctx, answer(requestId, new PurchaseStatus.Decided(seen), who), start);
            return;
        }
        Context context = parts.vertx().getOrCreateContext();
        parts.store()
                .lookup(requestId)
                .whenComplete((found, error) -> context.runOnContext(v -> {
                    if (error != null) {
                        parts.metrics()
                                .counter("seckill_gateway_status_store_errors")
                                .increment();
                    }
                    PurchaseStatus known = known(requestId, error != null ? null : found, seen);
                    Reply reply = known == null ? unknown(requestId, error, found, who) : answer(requestId, known, who);
                    if ((known instanceof PurchaseStatus.Pending || known instanceof PurchaseStatus.Issued)
                            && reply.status() == 200
                            && wait > 0) {
                        if (parts.waiters().waiting() >= parts.maxWaiters()) {
                            reply = parts.reads()
                                    .cannotTell(
                                            requestId, "too many requests are waiting for outcomes", "waiters_full");
                        } else {
                            Payload p = known.payload();
                            awaitThenReply(ctx, requestId, p == null ? o -> true : p::sameAs, reply, who, wait, start);
                            return;
                        }
                    }
                    parts.responder().reply(ctx, reply, start);
                }));
    }

    /**
     * No purchase the store or this gateway knows under this id: 404 when the store is complete (it would hold it),
     * 503 when it cannot tell (Redis did not answer, or it is rebuilding after losing writes).
     */
    private Reply unknown(String requestId, Throwable error, PurchaseStatusStore.Found found, Long caller) {
        if (error != null)
            return parts.reads().cannotTell(requestId, "the purchase status store did not answer", "store_error");
        if (!found.complete())
            return parts.reads()
                    .cannotTell(
                            requestId,
                            "the purchase status store is catching up with the outcomes (after Redis lost writes)",
                            "rebuilding");
        long issuedAt = parts.ids().issuedAt(requestId);
        if (issuedAt >= 0) {
            // a gateway issued it, long enough ago that the pipeline would have decided it: it never got there
            return Reply.of(
                    404,
                    new JsonObject()
                            .put("requestId", requestId)
                            .put("status", "NOT_RECEIVED")
                            .put(
                                    "error",
                                    "no purchase with this requestId reached the pipeline within "
                                            + parts.pendingBoundMs() / 1000
                                            + " s of its acceptance; it was not decided: send the purchase again"),
                    "status_not_received");
        }
        if (found.afterLoss())
            return parts.reads()
                    .cannotTell(
                            requestId,
                            "the purchase status store was rebuilt after Redis lost writes, and a purchase accepted just "
                                    + "before may not be decided yet",
                            "after_loss");
        return notFound(requestId, caller);
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
     * What the store said ({@code found}; null when it did not answer), completed by what this gateway knows: an id it
     * accepted, the outcome its view saw (when it is the outcome of the purchase the store holds, or the store holds
     * nothing), or an id a gateway issued less than the pending bound ago and not decided yet. Null when nothing knows
     * the id ({@link #unknown}).
     */
    private PurchaseStatus known(String requestId, PurchaseStatusStore.Found found, Outcome seen) {
        boolean complete = found != null && found.complete();
        PurchaseStatus known = found == null ? new PurchaseStatus.Unknown() : found.status();
        if (known instanceof PurchaseStatus.Decided) return known;
        // the view's outcome under this id is this purchase's when the complete store holds nothing else for the id
        if (seen != null
                && complete
                && (known instanceof PurchaseStatus.Unknown || known.payload().sameAs(seen)))
            return new PurchaseStatus.Decided(seen);
        if (!complete) return null; // a claim or this gateway's memory may be of a purchase decided meanwhile
        if (known instanceof PurchaseStatus.Pending) return known;
        long now = System.currentTimeMillis();
        Payload here = parts.acceptedIds().purchase(requestId); // e.g. accepted while Redis did not answer
        if (here != null && now - parts.acceptedIds().acceptedAtMs(requestId) < parts.pendingBoundMs())
            return new PurchaseStatus.Pending(requestId, here.goodsId(), here.userId(), here.quantity(), Instant.EPOCH);
        long issuedAt = parts.ids().issuedAt(requestId);
        // an id a gateway issued lately: PENDING, as the store would hold its outcome if it had one
        return issuedAt >= 0 && now - issuedAt < parts.pendingBoundMs() ? new PurchaseStatus.Issued(issuedAt) : null;
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
        if (owner == null || (caller != null && owner.longValue() != caller)) return notFound(requestId, caller);
        if (status instanceof PurchaseStatus.Pending) {
            return new Reply(200, Responder.pending(requestId), "status_pending", Map.of());
        }
        Outcome o = ((PurchaseStatus.Decided) status).outcome();
        if (parts.reads().jwt() != null && caller == null) {
            // no token: the outcome only, never whose it is, what or how many (the buyer's own token gets it all)
            JsonObject body = new JsonObject()
                    .put("requestId", requestId)
                    .put("status", o.outcome().name());
            if (o.reason() != null) body.put("reason", o.reason());
            return Reply.of(200, body, "status_decided");
        }
        return new Reply(200, PurchaseReplies.outcomeBody(o), "status_decided", Map.of());
    }

    /** Never accepted, or another buyer's: the same 404, nothing of whose it is or what it was. */
    private static Reply notFound(String requestId, Long caller) {
        return Reply.of(
                404,
                new JsonObject()
                        .put("requestId", requestId)
                        .put("error", "no purchase with this requestId" + (caller != null ? " for this buyer" : "")),
                "status_not_found");
    }
}
