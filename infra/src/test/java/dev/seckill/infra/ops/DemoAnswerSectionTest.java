package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.harness.AnswerTimes;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The demo's page carries the buyer's time to answer beside the goods' accept → decision, in any locale. */
@Tag("fast")
class DemoAnswerSectionTest {
    @Test
    void theTimeToAnswerIsOnThePage_linkedToItsGoods_withDotsUnderAGermanLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            long[] micros = new long[100];
            boolean[] answered = new boolean[100];
            for (int i = 0; i < 100; i++) {
                micros[i] = 12_000 + i * 100L;
                answered[i] = true;
            }
            String html = DemoCommand.answerSection(AnswerTimes.of(micros, answered, 0), 1003);
            assertThat(html)
                    .contains("Time to answer, the buyer's view (goods 1003)")
                    .contains("href=\"#goods-1003\"")
                    .containsPattern("p50 1[0-9]\\.[0-9] ms")
                    .contains("knew within 100 ms 100.0%")
                    .doesNotContainPattern("[0-9],[0-9] ms");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void theDemosReportShowsItsTwoSales_notTheWarmUpsGoods() {
        java.util.List<dev.seckill.infra.ops.report.GoodsReport> all = java.util.List.of(
                dev.seckill.infra.ops.report.GoodsReport.of(
                        1001, java.util.List.of(), java.util.List.of(), java.util.Map.of()),
                dev.seckill.infra.ops.report.GoodsReport.of(
                        1002, java.util.List.of(), java.util.List.of(), java.util.Map.of()),
                dev.seckill.infra.ops.report.GoodsReport.of(
                        1003, java.util.List.of(), java.util.List.of(), java.util.Map.of()));
        assertThat(DemoCommand.theSales(all, 1002))
                .extracting(dev.seckill.infra.ops.report.GoodsReport::goodsId)
                .containsExactly(1001L, 1003L);
        assertThat(DemoCommand.theSales(all, -1)).hasSize(3);
    }
}
