package dev.seckill.stock.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Json;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The hand-written holding encoding is byte for byte Jackson's, and reads back as the same holding. */
@Tag("fast")
class HoldingJsonTest {
    @Test
    void encodesExactlyAsJackson() {
        Random random = new Random(7);
        String[] ids = {null, "r-1", "a.b:c-d_e", "quo\"te", "uni\u00e9"};
        for (int i = 0; i < 2_000; i++) {
            GoodsFold.Holding h = new GoodsFold.Holding(
                    random.nextInt(100),
                    ids[i % ids.length] == null ? null : ids[i % ids.length] + i,
                    random.nextInt(2_000) - 1,
                    random.nextBoolean());
            assertThat(new String(HoldingJson.encode(h), StandardCharsets.UTF_8))
                    .isEqualTo(new String(Json.write(h), StandardCharsets.UTF_8));
            assertThat(Json.read(HoldingJson.encode(h), GoodsFold.Holding.class))
                    .isEqualTo(h);
        }
    }
}
