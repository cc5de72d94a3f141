package dev.seckill.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the status side keeps of a purchase a draw holds, without Redis or Kafka: the id a gateway issues for it says
 * its draw (signed), the claim carries it, and the buyer's list says WAITING_DRAW until the draw is due and the pending
 * bound after it.
 */
@Tag("fast")
class HeldPurchasesTest {
    static final Instant CLOSES = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusMillis(123);
    static final DrawWait DRAW = new DrawWait(CLOSES, CLOSES.plusMillis(1_500), 7_777L);
    static final GeneratedIds IDS = new GeneratedIds("held-purchases-test-key".getBytes(StandardCharsets.UTF_8));

    @Test
    void anIdIssuedForAHeldPurchaseSaysItsDraw_signed() {
        long issued = CLOSES.toEpochMilli() - 300_000;
        String plain = IDS.next(issued);
        assertThat(plain).matches("g-[0-9a-f]{43}");
        assertThat(IDS.held(plain)).isNull();

        String held = IDS.nextHeld(issued, DRAW);
        assertThat(held).matches("g-[0-9a-f]{62}");
        assertThat(IDS.issuedAt(held)).hasValue(issued);
        assertThat(IDS.held(held)).isEqualTo(new DrawWait(CLOSES, CLOSES.plusMillis(1_500), null));

        char[] forged = held.toCharArray();
        forged[40] = forged[40] == 'f' ? 'e' : 'f'; // inside the window's end
        assertThat(IDS.held(new String(forged)))
                .as("a changed draw breaks the signature")
                .isNull();
        assertThat(IDS.issuedAt(new String(forged))).isEmpty();
        GeneratedIds another = new GeneratedIds("another-gateways-key".getBytes(StandardCharsets.UTF_8));
        assertThat(another.held(held)).isNull();
    }

    @Test
    void theClaimOfAHeldPurchaseCarriesItsDraw() {
        PurchaseStatus.Pending p = new PurchaseStatus.Pending("r-1", 5, 6, 1, CLOSES.minusSeconds(60), DRAW);
        assertThat(PurchaseStatus.parse(p.encode())).isEqualTo(p);
        assertThat(new JsonObject(p.encode()).getString("status")).isEqualTo("PENDING");
        PurchaseStatus.Pending plain = new PurchaseStatus.Pending("r-2", 5, 6, 1, CLOSES);
        assertThat(PurchaseStatus.parse(plain.encode())).isEqualTo(plain);
        assertThat(new JsonObject(plain.encode()).containsKey("drawClosesAt")).isFalse();
    }

    @Test
    void theBuyersListSaysWaitingDrawUntilTheDrawIsDueAndTheBound_thenNotReceived() {
        long bound = 2_000;
        long accepted = CLOSES.toEpochMilli() - 300_000;
        long due = CLOSES.plusMillis(1_500).toEpochMilli() + bound;
        Map<String, String> held =
                Map.of("held", BuyerPurchases.pending(accepted, DRAW), "plain", BuyerPurchases.pending(accepted, null));

        JsonObject before = status(BuyerPurchases.body(5, 6, held, due - 1, bound, d -> "late " + d.beaconRound()));
        assertThat(before.getJsonObject("held"))
                .isEqualTo(new JsonObject()
                        .put("requestId", "held")
                        .put("status", "WAITING_DRAW")
                        .put("drawClosesAt", CLOSES.toString())
                        .put("beaconRound", 7_777L)
                        .put("drawDelayed", "late 7777"));
        assertThat(before.getJsonObject("plain").getString("status")).isEqualTo("NOT_RECEIVED");

        JsonObject after = status(BuyerPurchases.body(5, 6, held, due, bound, d -> null));
        assertThat(after.getJsonObject("held").getString("status")).isEqualTo("NOT_RECEIVED");
        JsonObject early = status(BuyerPurchases.body(5, 6, held, accepted + 1, bound, d -> null));
        assertThat(early.getJsonObject("plain").getString("status")).isEqualTo("PENDING");
        assertThat(early.getJsonObject("held").containsKey("drawDelayed")).isFalse();
    }

    /** The list's purchases by requestId. */
    static JsonObject status(JsonObject body) {
        JsonObject byId = new JsonObject();
        body.getJsonArray("purchases").forEach(p -> byId.put(((JsonObject) p).getString("requestId"), p));
        return byId;
    }
}
