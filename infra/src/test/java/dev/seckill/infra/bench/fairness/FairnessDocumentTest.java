package dev.seckill.infra.bench.fairness;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.infra.harness.draw.DrawCheck;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What {@code bench fairness --json} holds for one sale: both groups' figures as numbers, none lost to a name. */
@Tag("fast")
class FairnessDocumentTest {
    private static final FairSale.Group NEAR = new FairSale.Group("near", 2_500, 1, 0, 1);
    private static final FairSale.Group FAR = new FairSale.Group("far", 2_500, 1, 50, 2_501);

    private static DrawCheck.Result draw(int buyers, List<String> problems) {
        return new DrawCheck.Result(1, 0, false, buyers, List.of(), List.of(), Set.of(), Set.of(), problems, List.of());
    }

    private static JsonNode document(FairSale.Result r) {
        return Json.MAPPER.valueToTree(FairnessTable.document(List.of(NEAR, FAR), r));
    }

    @Test
    void aLotteryKeepsEachGroupsWinsPerBuyerAndItsDrawsCheck() {
        // Given a lottery of 1,000 units that gave the near group 516 and ranked every buyer sent
        FairSale.Result r = new FairSale.Result(
                Fairness.LOTTERY, Map.of(NEAR, 516L, FAR, 484L), draw(5_000, List.of()), new long[] {100, 200, 300});
        // When it is documented
        JsonNode d = document(r);
        // Then both groups' wins per buyer are there, as numbers, with the test and the draw's check
        assertThat(d.at("/groupA/won").asLong()).isEqualTo(516);
        assertThat(d.at("/groupA/wonPerBuyer").asDouble()).isEqualTo(516 / 2_500.0);
        assertThat(d.at("/groupB/wonPerBuyer").asDouble()).isEqualTo(484 / 2_500.0);
        assertThat(d.at("/groupB/name").asText()).isEqualTo("far");
        assertThat(d.at("/interval99A/within").asBoolean()).isTrue();
        assertThat(d.at("/interval99A/low").asInt()).isLessThan(500).isGreaterThan(400);
        assertThat(d.at("/pSplitIfFair").isNumber()).isTrue();
        assertThat(d.at("/draw/verified").asBoolean()).isTrue();
        assertThat(d.at("/draw/buyersRanked").asInt()).isEqualTo(5_000);
        assertThat(d.at("/fair").asBoolean()).isTrue();
        assertThat(d.at("/answerP99Ms").asLong()).isEqualTo(300);
    }

    @Test
    void aDrawThatLeftBuyersOutIsNotFair_andFirstComeFirstServedHasNoDraw() {
        FairSale.Result lottery = new FairSale.Result(
                Fairness.LOTTERY, Map.of(NEAR, 500L, FAR, 500L), draw(4_000, List.of()), new long[] {1});
        assertThat(document(lottery).at("/fair").asBoolean()).isFalse();
        FairSale.Result fcfs = new FairSale.Result(Fairness.FCFS, Map.of(NEAR, 1_000L, FAR, 0L), null, new long[] {1});
        JsonNode d = document(fcfs);
        assertThat(d.has("draw")).isFalse();
        assertThat(d.has("fair")).isFalse();
        assertThat(d.at("/interval99A/within").asBoolean()).isFalse();
    }
}
