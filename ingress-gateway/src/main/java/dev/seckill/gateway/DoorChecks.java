package dev.seckill.gateway;

import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.PurchaseStatus;
import io.vertx.core.Context;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * The door's checks that need nothing but the request and the gateway's parts: rate limits, the sale window and the
 * sold-out short-circuit. Each answers a reply that stops the request there, or null to let it through; they answer
 * only what the stream would (docs/security.md, "The door decides nothing it cannot take back").
 */
final class DoorChecks {
    private DoorChecks() {}

    static Reply rateLimit(PurchaseRoute.Parts parts, PurchaseRoute.Attempt a) {
        RateLimiter.Limited limited =
                parts.limiter().check(a.request().goodsId(), a.request().userId());
        if (limited == null) return null;
        parts.metrics()
                .counter("seckill_gateway_rate_limited", "scope", limited.scope())
                .increment();
        return Reply.of(
                        429,
                        new JsonObject()
                                .put("error", "rate limited (" + limited.scope() + ")")
                                .put("retryAfterSeconds", limited.retryAfterSeconds()),
                        "rate_limited")
                .withHeader("Retry-After", Long.toString(limited.retryAfterSeconds()));
    }

    static Reply saleWindow(PurchaseRoute.Parts parts, PurchaseRoute.Attempt a) {
        String outside =
                parts.windows().reject(a.request().goodsId(), parts.clock().millis());
        if (outside == null) return null;
        parts.metrics()
                .counter("seckill_gateway_short_circuits", "kind", outside)
                .increment();
        return Reply.of(
                200,
                new JsonObject()
                        .put("status", "REJECTED")
                        .put("reason", outside)
                        .put("goodsId", a.request().goodsId()),
                "rejected_" + outside);
    }

    /**
     * SOLD_OUT at the door for a goods marked sold out — except for a requestId the pipeline may already have decided:
     * the retry of a 503 ("UNKNOWN: retry with this requestId") whose purchase was appended and may have taken the
     * last unit. The stream answers such a retry with its stored decision, so the door must too: a requestId a gateway
     * issued always goes on ({@code passOn}), a client's goes on when the status store knows it (claimed or decided),
     * and is answered SOLD_OUT only when it does not (or goes on when Redis cannot say, or the store is rebuilding).
     */
    static Reply soldOut(PurchaseRoute.Parts parts, PurchaseRoute.Attempt a, Consumer<PurchaseRoute.Attempt> passOn) {
        if (!parts.view().knownSoldOut(a.request().goodsId())) return null;
        String requestId = a.request().requestId();
        if (requestId == null) return soldOutReply(parts, a);
        if (parts.ids().issuedAt(requestId) >= 0) return null;
        Context context = parts.vertx().getOrCreateContext();
        parts.store()
                .lookupAtDoor(requestId)
                .whenComplete((found, error) -> context.runOnContext(v -> {
                    // a store that lost writes and is catching up cannot say the id is new: the stream decides
                    if (error == null && found.status() instanceof PurchaseStatus.Unknown && found.sureOfAbsence())
                        parts.responder().reply(a.ctx(), soldOutReply(parts, a), a.start());
                    else passOn.accept(a);
                }));
        return Reply.LATER;
    }

    private static Reply soldOutReply(PurchaseRoute.Parts parts, PurchaseRoute.Attempt a) {
        parts.metrics()
                .counter("seckill_gateway_short_circuits", "kind", "sold_out")
                .increment();
        return Reply.of(
                200,
                new JsonObject()
                        .put("status", "SOLD_OUT")
                        .put("goodsId", a.request().goodsId()),
                "sold_out");
    }
}
