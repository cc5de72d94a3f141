package dev.seckill.contracts.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The hand-written outcome encoding is byte for byte Jackson's, and reads back as the same outcome. */
@Tag("fast")
class OutcomeJsonTest {
    @Test
    void encodesExactlyAsJackson() {
        Random random = new Random(3);
        String[] reasons = {null, "not_started", "ended", "no_sale", "over_limit", "invalid", "we\"ird\\"};
        String[] ids = {"r-1", "b12345", "a.b:c-d_e", "quo\"te", "uni\u00e9"};
        for (int i = 0; i < 5_000; i++) {
            Instant accepted = i % 7 == 0
                    ? null
                    : Instant.ofEpochSecond(
                            1_700_000_000L + random.nextInt(100_000_000),
                            (i % 3) * 123_000_000 + random.nextInt(2) * 456);
            Instant decided = i % 11 == 0
                    ? null
                    : Instant.ofEpochSecond(
                            1_700_000_000L + random.nextInt(100_000_000), random.nextInt(1_000_000_000));
            OutcomeKind kind = i % 13 == 0 ? null : OutcomeKind.values()[random.nextInt(OutcomeKind.values().length)];
            Outcome o = new Outcome(
                    1,
                    ids[i % ids.length] + i,
                    random.nextInt(1_000_000),
                    random.nextInt(1_000_000),
                    1 + random.nextInt(100),
                    kind,
                    reasons[i % reasons.length],
                    random.nextInt(2_000) - 1,
                    accepted,
                    decided,
                    random.nextInt(12),
                    random.nextLong() & Long.MAX_VALUE,
                    i % 17 == 0 ? "requestId reused: \"userId\" differs" : null,
                    i % 5 == 0 ? ids[(i / 5) % ids.length] + "held" : null);
            String mine = new String(OutcomeJson.encode(o), StandardCharsets.UTF_8);
            assertThat(mine).isEqualTo(new String(Json.write(o), StandardCharsets.UTF_8));
            assertThat(Json.read(OutcomeJson.encode(o), Outcome.class)).isEqualTo(o);
        }
    }
}
