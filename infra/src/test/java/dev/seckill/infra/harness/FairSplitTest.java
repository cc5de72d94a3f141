package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The fair-draw test the fairness benchmark prints, against figures computed by hand from the normal approximation. */
@Tag("fast")
class FairSplitTest {

    @Test
    void anEvenSplitOfAThousandUnitsBetweenTwoEqualGroupsIsLikely_andAllToOneGroupIsNot() {
        FairSplit even = FairSplit.of(500, 1000, 2500, 5000);
        assertThat(even.p()).isGreaterThan(0.9);
        assertThat(even.within99()).isTrue();
        // sd = sqrt(1000 · ½ · ½ · 4000/4999) = 14.1: the 99% interval is 500 ± 2.576 sd ≈ [464, 536]
        assertThat(even.low99()).isBetween(462, 466);
        assertThat(even.high99()).isBetween(534, 538);

        FairSplit race = FairSplit.of(1000, 1000, 2500, 5000);
        assertThat(race.p()).isLessThan(1e-100);
        assertThat(race.within99()).isFalse();
    }

    @Test
    void aGroupOfBotsWinsPerBuyerAsEveryoneWhenItsShareIsItsSize() {
        FairSplit bots = FairSplit.of(38, 1000, 100, 2600);
        assertThat(bots.groupRate()).isCloseTo(0.38, within(1e-9));
        assertThat(bots.othersRate()).isCloseTo(962.0 / 2500, within(1e-9));
        assertThat(bots.within99()).isTrue();
        assertThat(FairSplit.of(100, 1000, 100, 2600).within99()).isFalse();
    }
}
