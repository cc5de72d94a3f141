package dev.seckill.infra.harness.buyers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The split of a pipeline answer's time into its hops, from the times the answer carries and the client's clock. */
@Tag("fast")
class AnswerHopsTest {
    @Test
    void eachHopIsTheDifferenceOfItsTwoTimes_andAnswersWithoutThemAreLeftOut() {
        // purchase i: sent at 1000+i, accepted 10(i+1) ms later, decided 100 ms after that, answered 5 ms after that;
        // every fourth was answered at the door (no acceptedAt/decidedAt)
        int n = 100;
        long[] sent = new long[n];
        long[] accepted = new long[n];
        long[] decided = new long[n];
        long[] answered = new long[n];
        for (int i = 0; i < n; i++) {
            sent[i] = 1_000 + i;
            boolean door = i % 4 == 3;
            accepted[i] = door ? -1 : sent[i] + 10L * (i + 1);
            decided[i] = door ? -1 : accepted[i] + 100;
            answered[i] = (door ? sent[i] + 1 : decided[i] + 5);
        }

        AnswerHops hops = AnswerHops.of(sent, accepted, decided, answered);

        assertThat(hops.purchases()).isEqualTo(75);
        // percentiles through HdrHistogram (3 significant digits): within 0.05% of the recorded value
        assertThat(hops.toDecided().p50()).isCloseTo(100, withinPercentage(0.05));
        assertThat(hops.toDecided().p99()).isCloseTo(100, withinPercentage(0.05));
        assertThat(hops.toAnswer().p50()).isCloseTo(5, withinPercentage(0.05));
        assertThat(hops.toAnswer().p99()).isCloseTo(5, withinPercentage(0.05));
        // sent → accepted: 10, 20, 30, (40 at the door), 50, …, 990, (1000 at the door): the 75 kept are 10 k for k
        // not a multiple of 4; p50 is the 38th of them (k = 50), p99 the 75th (k = 99)
        assertThat(hops.toAccepted().p50()).isCloseTo(500, withinPercentage(0.05));
        assertThat(hops.toAccepted().p99()).isCloseTo(990, withinPercentage(0.05));
        assertThat(hops.toString())
                .isEqualTo(
                        "75 decided by the stream, p50/p99: sent → accepted 500/990 ms, accepted → decided 100/100 ms,"
                                + " decided → answer 5/5 ms");
    }

    @Test
    void aBaselineWhoseAnswersCarryNoTimesHasNoHops() {
        long[] none = {-1, -1};
        assertThat(AnswerHops.of(new long[] {1, 2}, none, none, new long[] {3, 4}))
                .isNull();
    }
}
