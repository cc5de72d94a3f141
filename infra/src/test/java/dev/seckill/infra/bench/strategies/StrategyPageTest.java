package dev.seckill.infra.bench.strategies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.harness.audit.StrategyAudit;
import dev.seckill.infra.ops.report.HeadlessChromium;
import dev.seckill.infra.ops.report.PageLayout;
import dev.seckill.infra.ops.report.SvgLabels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The strategies page as a reader on a laptop sees it: one column (no inline-block charts drifting right), the table
 * a column per strategy so it fits, the figures that are 0 for every strategy said in one line instead of empty
 * charts, no label on another, and the same page under a German default locale.
 */
@Tag("light")
class StrategyPageTest {
    static StrategyRun.Result result(String name, double perSecond, long lost, int connections) {
        return new StrategyRun.Result(
                name,
                false,
                10_000,
                0,
                perSecond,
                12.5,
                240.25,
                new StrategyRun.FirstSecond(3_000, 10.5, 99.5, null),
                Map.of("SUCCESS", 1_000L),
                new StrategyAudit(1_000, 0, 0, 0, 1_000, lost, 0),
                connections,
                -1);
    }

    static String page() {
        return StrategyTable.html(
                new StrategyRun.Workload(1_000, 10_000, 200, 5_000, 7, 0),
                List.of(
                        result("pessimistic", 1_234.5, 0, 50),
                        result("optimistic", 2_345, 0, 50),
                        result("sync", 12_345, 0, 0),
                        result("pipeline", 45_678, 0, 0)),
                List.of(
                        result("pessimistic", 1_000, 0, 50),
                        result("optimistic", 2_000, 3, 50),
                        result("sync", 10_000, 0, 0),
                        result("pipeline", 40_000, 0, 0)));
    }

    @Test
    void onePageColumn_aTableColumnPerStrategy_zerosInWords_andNoLabelOnAnother() throws Exception {
        String html = page();
        Files.writeString(Path.of("target", "strategy-page.html"), html); // to look at in headless Chromium
        assertThat(html).doesNotContain("inline-block").contains("max-width:920px");
        assertThat(html)
                .contains("<thead><tr><th></th><th>pessimistic</th><th>optimistic</th><th>sync</th><th>pipeline</th>")
                .contains("<th>first second: sent</th>")
                .contains("<tr><th>sold</th><td>1,000</td>")
                .contains("<tr><th>answers/s</th><td>1,235</td>")
                .contains("<title>pessimistic: 1235</title>"); // the chart rounds as the table
        String normal = html.substring(html.indexOf("Normal run"), html.indexOf("SIGKILLed"));
        assertThat(normal)
                .contains("<b>oversold units</b>: 0 for every strategy")
                .contains("<b>confirmed sales lost</b>: 0 for every strategy")
                .contains("<b>units left unsold</b>: 0 for every strategy");
        String faulted = html.substring(html.indexOf("SIGKILLed"));
        assertThat(faulted).contains("<figcaption>confirmed sales lost</figcaption>");
        List<String> charts = SvgLabels.charts(html);
        assertThat(charts).as("answers/s, p99, DB connections twice; lost once").hasSize(7);
        for (String svg : charts) {
            assertThat(svg).doesNotContain("data-points=\"0\"");
            assertThat(SvgLabels.overlaps(svg)).as(svg).isEmpty();
        }
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            assertThat(page()).isEqualTo(html);
        } finally {
            Locale.setDefault(before);
        }
    }

    /**
     * The same page in headless Chromium at 1280×800, measured by the browser: both runs there, every chart's bars
     * drawn, no label on another or outside its chart, the table inside the column; screenshots in target/.
     */
    @Test
    void inChromiumAt1280x800_bothRuns_everyBarDrawn_noLabelOnAnotherOrOutsideItsChart_theTableInTheColumn()
            throws Exception {
        Path page = Path.of("target", "strategy-page.html");
        Files.writeString(page, page());
        PageLayout layout = HeadlessChromium.measure(page);
        assertThat(layout.viewportWidth()).as("the window's width").isEqualTo(HeadlessChromium.WIDTH);
        assertThat(layout.headings())
                .containsExactly(
                        "Deduct strategies, one sale, one machine",
                        "Normal run",
                        "Serving processes SIGKILLed once mid-sale, then restarted");
        assertThat(layout.charts())
                .as("answers/s, p99, DB connections twice; lost once")
                .hasSize(7);
        assertThat(layout.charts())
                .allSatisfy(c -> assertThat(c.bars()).as(c.caption()).hasSize(4));
        assertThat(layout.overlaps()).as("labels on top of each other").isEmpty();
        assertThat(layout.outside()).as("labels outside their chart").isEmpty();
        assertThat(layout.undrawn()).as("charts or bars not drawn").isEmpty();
        assertThat(layout.scrollWidth()).as("the page's width at 1280 px").isLessThanOrEqualTo(HeadlessChromium.WIDTH);
        assertThat(layout.wide())
                .as("past the page's column or scrolling sideways")
                .isEmpty();
        assertThat(layout.errors()).as("script errors").isEmpty();
        HeadlessChromium.screenshot(page, Path.of("target", "strategies-1280x800.png"));
        HeadlessChromium.screenshot(page, Path.of("target", "strategies-1280-full.png"), layout.scrollHeight());
    }
}
