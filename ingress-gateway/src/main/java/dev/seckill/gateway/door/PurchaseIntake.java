package dev.seckill.gateway.door;

import dev.seckill.gateway.auth.BuyerTokens;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.Responder;
import io.vertx.ext.web.RoutingContext;

/** A purchase's first steps at the door, which make the request: the buyer's token (when auth is on), then the body. */
final class PurchaseIntake {
    private PurchaseIntake() {}

    /** The request, or the reply that refuses it (401 token, 429 too many refused tokens, 400 naming the field, 403 another buyer's userId). */
    record Read(PurchaseRequest request, Reply refused) {}

    /**
     * The request, or its refusal. The requestId the request named is kept for the problem it may be answered (a
     * refusal's, or the door's later): {@link Responder#REQUEST_ID}.
     */
    static Read read(BuyerTokens tokens, RoutingContext ctx) {
        Long buyer = null;
        if (tokens != null) {
            BuyerTokens.Checked checked = tokens.check(ctx, "unauthenticated");
            if (checked.refused() != null) return refused(ctx, checked.refused());
            buyer = checked.buyer();
        }
        try {
            PurchaseRequest request = PurchaseRequest.parse(ctx.body().asString(), buyer);
            if (request.requestId() != null) ctx.put(Responder.REQUEST_ID, request.requestId());
            return new Read(request, null);
        } catch (PurchaseRequest.Invalid e) {
            return refused(ctx, Replies.invalid(e.getMessage(), e.field));
        } catch (PurchaseRequest.Forbidden e) {
            return refused(ctx, Replies.forbidden(e.getMessage()));
        }
    }

    private static Read refused(RoutingContext ctx, Reply refusal) {
        // too many refused tokens is answered without reading anything (RefusalBudget): the body too
        if (refusal.status() == 429) return new Read(null, refusal);
        String named = PurchaseRequest.namedRequestId(ctx.body().asString());
        if (named != null) ctx.put(Responder.REQUEST_ID, named);
        return new Read(null, refusal);
    }
}
