package dev.seckill.gateway.status;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.outcome.Outcome;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** What the status store knows of one requestId: nothing, an accepted purchase not decided yet, or its outcome. */
public sealed interface PurchaseStatus {
    /** Never accepted (or forgotten after the store's retention). */
    record Unknown() implements PurchaseStatus {}

    /** Accepted by a gateway (Kafka has it), not decided yet. */
    record Pending(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt)
            implements PurchaseStatus {
        String encode() {
            return new JsonObject()
                    .put("requestId", requestId)
                    .put("goodsId", goodsId)
                    .put("userId", userId)
                    .put("quantity", quantity)
                    .put("acceptedAt", acceptedAt.toString())
                    .put("status", "PENDING")
                    .encode();
        }
    }

    /**
     * Not in the store yet, but the id is one a gateway issued {@code issuedAtMs} ago and recently enough that its
     * command may still be on its way to the index: PENDING, whose it is unknown.
     */
    record Issued(long issuedAtMs) implements PurchaseStatus {}

    /** Decided: the committed outcome. */
    record Decided(Outcome outcome) implements PurchaseStatus {}

    /** The buyer it belongs to, or null when unknown. */
    default Long owner() {
        Payload p = payload();
        return p == null ? null : p.userId();
    }

    /** The purchase the requestId stands for, or null when unknown (nothing stored, or an id a gateway issued). */
    default Payload payload() {
        if (this instanceof Pending p) return new Payload(p.goodsId(), p.userId(), p.quantity());
        if (this instanceof Decided d) return Payload.of(d.outcome());
        return null;
    }

    static String encode(Outcome outcome) {
        return new String(Json.write(outcome), StandardCharsets.UTF_8);
    }

    /** Reads a stored value: an outcome has an {@code outcome} field, a pending purchase has {@code status} PENDING. */
    static PurchaseStatus parse(String stored) {
        if (stored == null) return new Unknown();
        JsonObject json = new JsonObject(stored);
        if (json.containsKey("outcome"))
            return new Decided(Json.read(stored.getBytes(StandardCharsets.UTF_8), Outcome.class));
        return new Pending(
                json.getString("requestId"),
                json.getLong("goodsId"),
                json.getLong("userId"),
                json.getInteger("quantity"),
                Instant.parse(json.getString("acceptedAt")));
    }
}
