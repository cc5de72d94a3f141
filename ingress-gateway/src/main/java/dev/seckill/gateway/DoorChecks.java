package dev.seckill.gateway;

import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.limit.RateLimiter;
import io.vertx.core.json.JsonObject;

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

    static Reply soldOut(PurchaseRoute.Parts parts, PurchaseRoute.Attempt a) {
        if (!parts.view().knownSoldOut(a.request().goodsId())) return null;
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
