package dev.seckill.infra.harness.buyers;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Given three purchases around a fault — one held at it and decided after it, one decided before it and answered after
 * it, one sent after it — the first answer to a purchase sent after the fault and the first answer decided after it.
 */
@Tag("fast")
class BuyerAnswersTest {
    static final long MS = 1_000_000;

    @Test
    void theFirstAnswerDecidedAfterAFaultCountsAHeldPurchase_notOneDecidedBeforeIt() {
        RequestTimestamps times = new RequestTimestamps(3);
        long t0 = System.nanoTime();
        times.sent(0); // the clock's two scales meet here: request 0 was sent at t0
        long epoch0 = times.sentMs(0);
        long fault = t0 + 50 * MS;
        String[] outcome = {"SUCCESS", "DUPLICATE", "SUCCESS"};
        long[] sentAt = {t0, t0 + 10 * MS, t0 + 60 * MS};
        long[] answeredAt = {t0 + 250 * MS, t0 + 70 * MS, t0 + 450 * MS};
        times.outcome(0, decidedAt(epoch0 + 200)); // held at the fault, decided by the instance that took over
        times.outcome(1, decidedAt(epoch0 + 20)); // decided before the fault, its answer after it
        times.outcome(2, decidedAt(epoch0 + 400)); // sent after the fault
        BuyerAnswers answers = new BuyerAnswers(outcome, sentAt, answeredAt, new long[3], times);

        assertThat(answers.firstAnswerAfter(fault))
                .as("to a purchase sent after the fault")
                .isEqualTo(400);
        assertThat(answers.firstDecidedAfter(fault))
                .as("decided after the fault, whenever sent")
                .isEqualTo(200);
        assertThat(answers.firstDecidedAfter(t0 + 500 * MS))
                .as("none decided after")
                .isEqualTo(-1);
    }

    private static JsonObject decidedAt(long epochMs) {
        return new JsonObject().put("decidedAt", Instant.ofEpochMilli(epochMs).toString());
    }
}
