package dev.seckill.gateway;

import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import io.vertx.ext.web.RoutingContext;

/** A purchase's first steps at the door, which make the request: the buyer's token (when auth is on), then the body. */
final class PurchaseIntake {
    private PurchaseIntake() {}

    /** The request, or the reply that refuses it (401 token, 429 too many refused tokens, 400 naming the field, 403 another buyer's userId). */
    record Read(PurchaseRequest request, Reply refused) {}

    static Read read(BuyerTokens tokens, RoutingContext ctx) {
        Long buyer = null;
        if (tokens != null) {
            BuyerTokens.Checked checked = tokens.check(ctx, "unauthenticated");
            if (checked.refused() != null) return new Read(null, checked.refused());
            buyer = checked.buyer();
        }
        try {
            return new Read(PurchaseRequest.parse(ctx.body().asString(), buyer), null);
        } catch (PurchaseRequest.Invalid e) {
            return new Read(null, Replies.invalid(e.getMessage(), e.field));
        } catch (PurchaseRequest.Forbidden e) {
            return new Read(null, Replies.forbidden(e.getMessage()));
        }
    }
}
