package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class AnswerTimesTest {
    private static long[] micros(long... ms) {
        long[] m = new long[ms.length];
        for (int i = 0; i < ms.length; i++) m[i] = ms[i] * 1000;
        return m;
    }

    private static boolean[] all(int n) {
        boolean[] b = new boolean[n];
        Arrays.fill(b, true);
        return b;
    }

    @Test
    void percentilesAreNearestRankOverTheAnsweredTimes() {
        long[] t = new long[100];
        for (int i = 0; i < 100; i++) t[i] = (100 - i) * 1000L; // 100 ms .. 1 ms, unsorted
        AnswerTimes a = AnswerTimes.of(t, all(100), 0);
        assertThat(a.percentileMillis(50)).isCloseTo(50.0, withinPercentage(0.05));
        assertThat(a.percentileMillis(99)).isCloseTo(99.0, withinPercentage(0.05));
        assertThat(a.percentileMillis(99.9)).isCloseTo(100.0, withinPercentage(0.05));
        assertThat(a.answered()).isEqualTo(100);
    }

    @Test
    void sharesWithinCountTheBoundaryAndNothingAfterIt() {
        AnswerTimes a = AnswerTimes.of(micros(10, 100, 101, 999, 1000, 1001, 5000, 20), all(8), 0);
        assertThat(a.shareWithin(100)).isEqualTo(3 / 8.0);
        assertThat(a.shareWithin(1000)).isEqualTo(6 / 8.0);
        assertThat(a.shareWithin(1)).isZero();
    }

    @Test
    void aRequestWithoutItsOutcomeNeverKnew_andMakesAHighPercentileInfinite() {
        boolean[] answered = all(10);
        answered[3] = false; // a 202 PENDING after its wait, though it came back quickly
        AnswerTimes a = AnswerTimes.of(micros(5, 5, 5, 1, 5, 5, 5, 5, 5, 5), answered, 0);
        assertThat(a.answered()).isEqualTo(9);
        assertThat(a.shareWithin(100)).isEqualTo(0.9);
        assertThat(a.percentileMillis(50)).isCloseTo(5.0, withinPercentage(0.05));
        assertThat(a.percentileMillis(99)).isInfinite();
        assertThat(a.percentiles()).contains("p99 not answered");
    }

    @Test
    void theFirstRequestsCanBeLeftOut() {
        AnswerTimes a = AnswerTimes.of(micros(900, 900, 10, 20), all(4), 2);
        assertThat(a.count()).isEqualTo(2);
        assertThat(a.percentileMillis(100)).isCloseTo(20.0, withinPercentage(0.05));
        assertThat(a.shareWithin(100)).isEqualTo(1.0);
    }

    @Test
    void nothingMeasuredIsZeroNotAnError() {
        AnswerTimes a = AnswerTimes.of(new long[0], new boolean[0], 0);
        assertThat(a.percentileMillis(99)).isZero();
        assertThat(a.shareWithin(100)).isZero();
    }
}
