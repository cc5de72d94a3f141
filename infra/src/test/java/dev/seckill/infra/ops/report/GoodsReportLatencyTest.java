package dev.seckill.infra.ops.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A report's maximum wait is the longest one measured, not its histogram bucket's middle. */
class GoodsReportLatencyTest {

    private static GoodsReport withLatencies(long... sortedMs) {
        return new GoodsReport(1, List.of(), Map.of(), null, null, sortedMs, Map.of(), 0, List.of(), null, List.of());
    }

    @Test
    void theMaximumIsTheLongestWaitToTheMillisecond() {
        // above 2,048 ms the histogram's buckets are 2 ms wide: 2,890 and 2,891 share one, whose middle is 2,891
        GoodsReport r = withLatencies(4, 15, 2_890);

        assertThat(r.latencyQuantileMs(1.0)).isEqualTo(2_890);
        assertThat(r.latencyQuantileMs(0.5)).isEqualTo(15);
    }

    @Test
    void aGoodsWithoutRequestsHasNoLatency() {
        assertThat(withLatencies().latencyQuantileMs(1.0)).isEqualTo(-1);
    }
}
