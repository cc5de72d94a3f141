package dev.seckill.gateway.status;

import dev.seckill.gateway.GatewayWiring;
import dev.seckill.gateway.door.WaitingDraws;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.Responder;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/purchases?goodsId=G}: the caller's own purchases of one goods — every requestId they bought it under
 * and what became of each ({@link BuyerPurchases}) — so a buyer can always learn what they hold: after a gateway crash
 * took their answer, after a 503, when they sent no requestId of their own. Owner only: the buyer is the token's;
 * with authentication off, the {@code userId} parameter. 503 while the store cannot say it holds them all.
 */
public final class PurchasesListRoute implements Handler<RoutingContext> {
    private final GatewayWiring w;
    private final Responder responder;
    private final StatusReads reads;

    public PurchasesListRoute(GatewayWiring wiring, Responder responder, StatusReads reads) {
        this.w = wiring;
        this.responder = responder;
        this.reads = reads;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        Long goodsId = positive(ctx.queryParams().get("goodsId"));
        if (goodsId == null) {
            responder.reply(ctx, Replies.invalid("goodsId must be a positive integer", "goodsId"), start);
            return;
        }
        StatusReads.Admitted admitted = reads.admit(ctx);
        if (admitted.stop() != null) {
            responder.reply(ctx, admitted.stop(), start);
            return;
        }
        Long buyer = admitted.caller();
        if (reads.jwt() == null) buyer = positive(ctx.queryParams().get("userId"));
        else if (buyer == null) {
            responder.reply(
                    ctx,
                    Replies.unauthenticated(
                            "a buyer's token is needed to list their purchases", "status_unauthenticated"),
                    start);
            return;
        }
        if (buyer == null) {
            responder.reply(ctx, Replies.invalid("userId must be a positive integer", "userId"), start);
            return;
        }
        long userId = buyer;
        Context context = w.vertx().getOrCreateContext();
        w.store()
                .purchasesOf(goodsId, userId)
                .whenComplete((listed, error) -> context.runOnContext(v -> {
                    Reply reply;
                    if (error != null) {
                        w.metrics()
                                .counter("seckill_gateway_status_store_errors")
                                .increment();
                        reply = reads.cannotTell(null, "the purchase status store did not answer", "store_error");
                    } else if (!listed.complete()) {
                        reply = reads.cannotTell(
                                null,
                                "the purchase status store is catching up with the outcomes (after Redis lost writes)",
                                "rebuilding");
                    } else {
                        long now = System.currentTimeMillis();
                        JsonObject body = BuyerPurchases.body(
                                goodsId,
                                userId,
                                listed.held(),
                                now,
                                w.config().pendingBoundMs(),
                                draw -> WaitingDraws.delayed(w.view().draws(), goodsId, draw, now));
                        // after a loss, a purchase accepted just before and not decided yet may be missing for a while
                        if (listed.afterLoss()) body.put("recentLoss", true);
                        reply = Replies.purchaseList(body);
                    }
                    responder.reply(ctx, reply, start);
                }));
    }

    private static Long positive(String text) {
        if (text == null || text.isEmpty() || text.length() > 19) return null;
        try {
            long v = Long.parseLong(text);
            return v > 0 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
