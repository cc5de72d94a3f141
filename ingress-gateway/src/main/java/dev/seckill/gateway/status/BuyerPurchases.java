package dev.seckill.gateway.status;

import dev.seckill.contracts.outcome.Outcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;

/**
 * One buyer's purchases of one goods as the status store lists them ({@code GET /api/purchases?goodsId=}): requestId
 * to {@code PENDING}, or to the outcome ({@code SUCCESS}, {@code SOLD_OUT}, {@code DUPLICATE}, {@code REJECTED:<reason>}),
 * so a buyer who lost an answer (a gateway crash, a 503, no requestId of their own) can learn what they hold.
 */
public final class BuyerPurchases {
    private BuyerPurchases() {}

    /** RequestIds one list holds at most (a buyer at the per-user limit reaches it only by flooding one goods). */
    static final String MAX_LISTED = "1000";

    /** The value a claim leaves: PENDING, and when (epoch ms), so that one past the pending bound says so. */
    static String pending(long acceptedAtMs) {
        return "PENDING@" + acceptedAtMs;
    }

    /** The value the list holds for an outcome. */
    static String value(Outcome o) {
        return o.reason() == null ? o.outcome().name() : o.outcome().name() + ":" + o.reason();
    }

    /**
     * The list as the route answers it: {@code purchases}, one object per requestId (sorted), status and reason; a
     * claim older than the pending bound that no outcome replaced is {@code NOT_RECEIVED} (its command never reached the
     * stream).
     */
    public static JsonObject body(
            long goodsId, long userId, Map<String, String> held, long nowMs, long pendingBoundMs) {
        JsonArray purchases = new JsonArray();
        new TreeMap<>(held).forEach((requestId, value) -> {
            JsonObject p = new JsonObject().put("requestId", requestId);
            if (value.startsWith("PENDING")) {
                long at = value.length() > 8 ? Long.parseLong(value.substring(8)) : 0;
                p.put("status", nowMs - at < pendingBoundMs ? "PENDING" : "NOT_RECEIVED");
            } else {
                int colon = value.indexOf(':');
                p.put("status", colon < 0 ? value : value.substring(0, colon));
                if (colon >= 0) p.put("reason", value.substring(colon + 1));
            }
            purchases.add(p);
        });
        return new JsonObject().put("goodsId", goodsId).put("userId", userId).put("purchases", purchases);
    }
}
