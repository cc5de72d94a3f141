package dev.seckill.gateway.status;

import dev.seckill.contracts.outcome.Outcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One buyer's purchases of one goods as the status store lists them ({@code GET /api/purchases?goodsId=}): requestId
 * to {@code PENDING}, or to the outcome ({@code SUCCESS}, {@code SOLD_OUT}, {@code DUPLICATE}, {@code REJECTED:<reason>}),
 * so a buyer who lost an answer (a gateway crash, a 503, no requestId of their own) can learn what they hold. A claim of
 * a purchase a draw holds is listed {@code WAITING_DRAW} with {@code drawClosesAt} (and {@code beaconRound}, and
 * {@code drawDelayed} when the draw is late) until its draw is due and the pending bound after it.
 */
public final class BuyerPurchases {
    private BuyerPurchases() {}

    /** RequestIds one list holds at most (a buyer at the per-user limit reaches it only by flooding one goods). */
    static final String MAX_LISTED = "1000";

    /**
     * The value a claim leaves: PENDING, and when (epoch ms), so that one past the pending bound says so; for a purchase
     * a draw holds, also when its window closes, its cutoff (epoch ms) and the beacon round ({@code -} when not known):
     * {@code PENDING@<acceptedAt>@<closesAt>@<cutoffAt>@<round>}. (It starts with PENDING: the list's script lets only
     * an outcome replace it.)
     */
    static String pending(long acceptedAtMs, DrawWait draw) {
        if (draw == null) return "PENDING@" + acceptedAtMs;
        return "PENDING@" + acceptedAtMs + "@" + draw.closesAt().toEpochMilli() + "@"
                + draw.cutoffAt().toEpochMilli() + "@" + (draw.beaconRound() == null ? "-" : draw.beaconRound());
    }

    /** A listed claim: when it was accepted and the draw it waits for (null: none); an unreadable one is past the bound. */
    private record Claim(long acceptedAtMs, DrawWait draw) {}

    private static Claim claim(String value) {
        String[] parts = value.split("@");
        try {
            long at = parts.length > 1 ? Long.parseLong(parts[1]) : 0;
            if (parts.length < 4) return new Claim(at, null);
            Long round = parts.length > 4 && !parts[4].equals("-") ? Long.parseLong(parts[4]) : null;
            return new Claim(
                    at,
                    new DrawWait(
                            Instant.ofEpochMilli(Long.parseLong(parts[2])),
                            Instant.ofEpochMilli(Long.parseLong(parts[3])),
                            round));
        } catch (NumberFormatException e) {
            return new Claim(0, null); // not a value this gateway writes: past the bound
        }
    }

    /** The value the list holds for an outcome. */
    static String value(Outcome o) {
        return o.reason() == null ? o.outcome().name() : o.outcome().name() + ":" + o.reason();
    }

    /**
     * The list as the route answers it: {@code purchases}, one object per requestId (sorted), status and reason; a
     * claim older than the pending bound that no outcome replaced is {@code NOT_RECEIVED} (its command never reached the
     * stream) — a claim a draw holds is {@code WAITING_DRAW} (with {@code drawClosesAt}, {@code beaconRound} when known
     * and {@code drawDelayed} when {@code delayed} says the draw is late) until its draw is due and the bound after it.
     *
     * @param delayed what a late draw's answer says ({@code drawDelayed}), or null when it is not late
     */
    public static JsonObject body(
            long goodsId,
            long userId,
            Map<String, String> held,
            long nowMs,
            long pendingBoundMs,
            Function<DrawWait, String> delayed) {
        JsonArray purchases = new JsonArray();
        new TreeMap<>(held).forEach((requestId, value) -> {
            JsonObject p = new JsonObject().put("requestId", requestId);
            if (value.startsWith("PENDING")) {
                Claim c = claim(value);
                if (c.draw() != null && nowMs < c.draw().heldUntilMs(c.acceptedAtMs(), pendingBoundMs)) {
                    p.put("status", "WAITING_DRAW")
                            .put("drawClosesAt", c.draw().closesAt().toString());
                    if (c.draw().beaconRound() != null)
                        p.put("beaconRound", c.draw().beaconRound());
                    String late = delayed.apply(c.draw());
                    if (late != null) p.put("drawDelayed", late);
                } else {
                    p.put(
                            "status",
                            c.draw() == null && nowMs - c.acceptedAtMs() < pendingBoundMs ? "PENDING" : "NOT_RECEIVED");
                }
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
