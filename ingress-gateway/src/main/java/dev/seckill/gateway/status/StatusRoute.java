package dev.seckill.gateway.status;

import dev.seckill.contracts.command.CommandRules;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.gateway.GatewayWiring;
import dev.seckill.gateway.door.RecentIds;
import dev.seckill.gateway.door.WaitingDraws;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.http.Responder;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * {@code GET /api/purchases/{requestId}}: the outcome of a purchase from state every gateway instance shares and that
 * survives their restarts ({@link PurchaseStatusStore}); {@code PENDING} only for a purchase accepted and not decided
 * yet; 404 for an id never accepted — and, so that ids cannot be probed, for another buyer's. With
 * {@code Prefer: wait=N} a pending purchase's answer is held until its outcome is known or N seconds pass.
 *
 * <p>A purchase a draw holds ({@link DrawWait}: its claim says so, or the id a gateway issued for it) is not decided
 * within the pending bound: it answers {@code WAITING_DRAW} ({@link WaitingDraws}: {@code drawClosesAt}, the beacon round
 * when known, {@code drawDelayed} when the draw is late, and its {@code entry} at the instance that accepted it, to its
 * owner) until its draw is due and the pending bound after it, never NOT_RECEIVED meanwhile.
 */
public final class StatusRoute implements Handler<RoutingContext> {
    private final GatewayWiring w;
    private final Responder responder;
    private final StatusReads reads;

    public StatusRoute(GatewayWiring wiring, Responder responder, StatusReads reads) {
        this.w = wiring;
        this.responder = responder;
        this.reads = reads;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        String requestId = ctx.pathParam("requestId");
        if (!CommandRules.validRequestId(requestId)) {
            responder.reply(
                    ctx, Replies.invalid("requestId must be 1-64 characters of [A-Za-z0-9._:-]", "requestId"), start);
            return;
        }
        StatusReads.Admitted admitted = reads.admit(ctx);
        if (admitted.stop() != null) {
            responder.reply(ctx, admitted.stop(), start);
            return;
        }
        Long who = admitted.caller();
        int wait = RequestHeaders.preferredWaitSeconds(ctx, w.config().maxWaitSeconds());
        Outcome seen = w.view().outcome(requestId);
        if (seen != null && surely(requestId, seen)) {
            responder.reply(ctx, answer(requestId, new PurchaseStatus.Decided(seen), who), start);
            return;
        }
        Context context = w.vertx().getOrCreateContext();
        w.store()
                .lookup(requestId)
                .whenComplete((found, error) -> context.runOnContext(v -> {
                    if (error != null)
                        w.metrics()
                                .counter("seckill_gateway_status_store_errors")
                                .increment();
                    PurchaseStatus known = known(requestId, error != null ? null : found, seen);
                    Reply reply = known == null ? unknown(requestId, error, found, who) : answer(requestId, known, who);
                    if ((known instanceof PurchaseStatus.Pending || known instanceof PurchaseStatus.Issued)
                            && reply.status() == 200
                            && wait > 0) {
                        if (w.waiters().waiting() >= w.config().maxWaiters()) {
                            reply = reads.cannotTell(
                                    requestId, "too many requests are waiting for outcomes", "waiters_full");
                        } else {
                            Payload p = known.payload();
                            awaitThenReply(ctx, requestId, p == null ? o -> true : p::sameAs, reply, who, wait, start);
                            return;
                        }
                    }
                    responder.reply(ctx, reply, start);
                }));
    }

    /**
     * No purchase the store or this gateway knows under this id: 404 when the store is complete (it would hold it),
     * 503 when it cannot tell (Redis did not answer, or it is rebuilding after losing writes).
     */
    private Reply unknown(String requestId, Throwable error, PurchaseStatusStore.Found found, Long caller) {
        if (error != null)
            return reads.cannotTell(requestId, "the purchase status store did not answer", "store_error");
        if (!found.complete())
            return reads.cannotTell(
                    requestId,
                    "the purchase status store is catching up with the outcomes (after Redis lost writes)",
                    "rebuilding");
        if (w.ids()
                .issued(requestId)) // a gateway issued it long enough ago that it would be decided: it never got there
        return Replies.notReceived(requestId, w.config().pendingBoundMs());
        if (found.afterLoss())
            return reads.cannotTell(
                    requestId,
                    "the purchase status store was rebuilt after Redis lost writes, and a purchase accepted just "
                            + "before may not be decided yet",
                    "after_loss");
        return Replies.notFound(requestId, caller);
    }

    /**
     * The view's outcome is this id's purchase for sure, without asking the store: the id is one a gateway issued (never
     * a client's), or this gateway accepted it for the purchase the outcome is of. Otherwise the store says which
     * purchase the id stands for: the view keeps the latest outcome of a requestId, whichever purchase it is of.
     */
    private boolean surely(String requestId, Outcome seen) {
        Payload here = w.acceptedIds().purchase(requestId);
        return here != null ? here.sameAs(seen) : w.ids().issued(requestId);
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
        RecentIds.Accepted here = w.acceptedIds().accepted(requestId); // e.g. accepted while Redis did not answer
        if (here != null && now < heldUntil(here.atMs(), here.draw())) {
            Payload p = here.purchase();
            return new PurchaseStatus.Pending(
                    requestId, p.goodsId(), p.userId(), p.quantity(), Instant.ofEpochMilli(here.atMs()), here.draw());
        }
        OptionalLong issuedAt = w.ids().issuedAt(requestId);
        if (issuedAt.isEmpty()) return null;
        // an id a gateway issued lately (or for a purchase a draw holds, until the draw is due): PENDING, as the store
        // would hold its outcome if it had one
        DrawWait draw = w.ids().held(requestId);
        return now < heldUntil(issuedAt.getAsLong(), draw)
                ? new PurchaseStatus.Issued(issuedAt.getAsLong(), draw)
                : null;
    }

    /** Until when a purchase accepted at {@code acceptedAtMs} may still be undecided: the bound, or its draw's due. */
    private long heldUntil(long acceptedAtMs, DrawWait draw) {
        long bound = w.config().pendingBoundMs();
        return draw == null ? acceptedAtMs + bound : draw.heldUntilMs(acceptedAtMs, bound);
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
        w.waiters()
                .await(
                        requestId,
                        mine,
                        wait * 1000L,
                        o -> responder.reply(
                                ctx,
                                answer(requestId, new PurchaseStatus.Decided(o), who)
                                        .withHeader("Preference-Applied", applied),
                                start),
                        () -> responder.reply(ctx, pending.withHeader("Preference-Applied", applied), start));
    }

    /** The answer to {@code caller} (null: no token) about a purchase, by what the store knows of it. */
    private Reply answer(String requestId, PurchaseStatus status, Long caller) {
        if (status instanceof PurchaseStatus.Issued issued) {
            // a gateway issued this id and its outcome is not indexed yet: pending (waiting for its draw, which the
            // id says), nothing more to tell
            return issued.draw() == null
                    ? Replies.pending(200, requestId, "status_pending")
                    : waiting(requestId, null, issued.draw(), caller);
        }
        Long owner = status.owner();
        if (owner == null || (caller != null && owner.longValue() != caller))
            return Replies.notFound(requestId, caller);
        if (status instanceof PurchaseStatus.Pending p) {
            return p.draw() == null
                    ? Replies.pending(200, requestId, "status_pending")
                    : waiting(requestId, p.goodsId(), p.draw(), caller);
        }
        Outcome o = ((PurchaseStatus.Decided) status).outcome();
        // no token: the outcome only, never whose it is, what or how many (the buyer's own token gets it all)
        if (reads.jwt() != null && caller == null) return Replies.decidedAnonymous(requestId, o);
        return Replies.decided(o, "status_decided");
    }

    /**
     * WAITING_DRAW for a purchase {@code draw} holds ({@code goodsId}: its goods, null when the id does not say). The
     * draw's times, round and lateness are the sale's, public; its entry only where this gateway accepted it, and with
     * authentication on only to its owner's token.
     */
    private Reply waiting(String requestId, Long goodsId, DrawWait draw, Long caller) {
        RecentIds.Accepted here = w.acceptedIds().accepted(requestId);
        boolean owner = here != null
                && (reads.jwt() == null
                        || (caller != null && caller == here.purchase().userId()));
        return WaitingDraws.reply(
                w.view().draws(),
                200,
                requestId,
                goodsId,
                draw,
                owner ? here.entry() : null,
                System.currentTimeMillis(),
                "status_pending");
    }
}
