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

    /**
     * Accepted by a gateway (Kafka has it), not decided yet; {@code draw}: the draw it waits for (accepted while its
     * goods' draw was not drawn yet, see {@link DrawWait}), else null. The stored claim carries it as
     * {@code drawClosesAt}, {@code drawCutoffAt} and {@code beaconRound} (left out for a purchase no draw holds).
     */
    record Pending(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, DrawWait draw)
            implements PurchaseStatus {
        public Pending(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt) {
            this(requestId, goodsId, userId, quantity, acceptedAt, null);
        }

        String encode() {
            JsonObject json = new JsonObject()
                    .put("requestId", requestId)
                    .put("goodsId", goodsId)
                    .put("userId", userId)
                    .put("quantity", quantity)
                    .put("acceptedAt", acceptedAt.toString())
                    .put("status", "PENDING");
            if (draw != null) {
                json.put("drawClosesAt", draw.closesAt().toString())
                        .put("drawCutoffAt", draw.cutoffAt().toString());
                if (draw.beaconRound() != null) json.put("beaconRound", draw.beaconRound());
            }
            return json.encode();
        }
    }

    /**
     * Not in the store yet, but the id is one a gateway issued {@code issuedAtMs} ago and recently enough that its
     * command may still be on its way to the index: PENDING, whose it is unknown. {@code draw}: the draw it waits for,
     * as the id says it ({@link GeneratedIds#held}), else null.
     */
    record Issued(long issuedAtMs, DrawWait draw) implements PurchaseStatus {
        public Issued(long issuedAtMs) {
            this(issuedAtMs, null);
        }
    }

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
        String closes = json.getString("drawClosesAt");
        return new Pending(
                json.getString("requestId"),
                json.getLong("goodsId"),
                json.getLong("userId"),
                json.getInteger("quantity"),
                Instant.parse(json.getString("acceptedAt")),
                closes == null
                        ? null
                        : new DrawWait(
                                Instant.parse(closes),
                                Instant.parse(json.getString("drawCutoffAt", closes)),
                                json.getLong("beaconRound")));
    }
}
