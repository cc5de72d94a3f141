package dev.seckill.infra.ops.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class JsonReportTest {
    static final Instant T = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    @Test
    void theReportsFiguresAsOneJsonDocument() throws Exception {
        GoodsReport r = GoodsReport.of(
                1001,
                List.of(
                        Outcome.of("a", 1001, 1, 1, OutcomeKind.SUCCESS, null, 1, T, T.plusMillis(40), 0, 1),
                        Outcome.of("b", 1001, 2, 1, OutcomeKind.SUCCESS, null, 0, T, T.plusMillis(60), 0, 2),
                        Outcome.of("c", 1001, 3, 1, OutcomeKind.SOLD_OUT, null, 0, T, T.plusMillis(80), 0, 3),
                        Outcome.of("d", 1001, 4, 1, OutcomeKind.REJECTED, "ended", 0, T, T.plusMillis(90), 0, 4)),
                List.of(LedgerEntry.of("open", 1001, LedgerType.OPENED, 2, null, null, null, 2, T.minusSeconds(1))),
                Map.of("CREATED", 2L));

        JsonNode doc = Json.MAPPER.readTree(JsonReport.render("demo-1.", List.of(r)));

        assertThat(doc.path("namespace").asText()).isEqualTo("demo-1.");
        JsonNode g = doc.path("goods").get(0);
        assertThat(g.path("goodsId").asLong()).isEqualTo(1001);
        assertThat(g.path("requests").asLong()).isEqualTo(4);
        assertThat(g.path("outcomes").path("SUCCESS").asLong()).isEqualTo(2);
        assertThat(g.path("outcomes").path("SOLD_OUT").asLong()).isEqualTo(1);
        assertThat(g.path("outcomesByReason").path("REJECTED/ended").asLong()).isEqualTo(1);
        assertThat(g.path("soldOutAt").asText()).isEqualTo(T.plusMillis(60).toString());
        assertThat(g.path("openToSoldOutMs").asLong()).isEqualTo(1_060);
        assertThat(g.path("acceptToDecisionMs").path("max").asLong()).isEqualTo(90);
        assertThat(g.path("orders").path("CREATED").asLong()).isEqualTo(2);
    }
}
