package dev.seckill.infra.ops.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.SvgCharts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a reader of the report's page must see, read from the page itself: every goods of the namespace, charts whose
 * series have points, a time resolution that fits the sale (20 ms buckets for a sale decided in 1.4 s), axes with
 * ticks and units, the sell-out marked, no two labels on top of each other; and the same page and text whatever the
 * JVM's default locale (a German one writes {@code 40,0}, which breaks an SVG coordinate list).
 */
@Tag("light")
class ReportChartsTest {
    static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    /** A sale of {@code stock} units decided over {@code spanMs}: every request 1 unit, one per buyer. */
    static GoodsReport sale(long goods, int stock, int requests, long spanMs, int rejected) {
        List<Outcome> os = new ArrayList<>();
        List<LedgerEntry> ledger = new ArrayList<>();
        ledger.add(LedgerEntry.of("open-" + goods, goods, LedgerType.OPENED, stock, null, null, null, stock, T0));
        long left = stock;
        for (int i = 0; i < requests; i++) {
            Instant accepted = T0.plusMillis(5 + spanMs * i / requests);
            Instant decided = accepted.plusMillis(3 + (i * 37L) % 250);
            OutcomeKind kind;
            String reason = null;
            if (i < rejected) {
                kind = OutcomeKind.REJECTED;
                reason = "over_limit";
            } else if (left > 0) {
                kind = OutcomeKind.SUCCESS;
                left--;
                ledger.add(LedgerEntry.of(
                        "deduct:" + goods + ":r" + i,
                        goods,
                        LedgerType.DEDUCTED,
                        1,
                        (long) i,
                        "r" + i,
                        null,
                        left,
                        decided));
            } else kind = i % 7 == 0 ? OutcomeKind.DUPLICATE : OutcomeKind.SOLD_OUT;
            os.add(Outcome.of("r" + i, goods, i, 1, kind, reason, left, accepted, decided, 0, i));
        }
        return GoodsReport.of(goods, os, ledger, Map.of("CREATED", (long) stock));
    }

    static List<GoodsReport> demo() {
        return List.of(
                sale(1001, 1000, 8000, 1400, 0), // the demo's sale: sold out in well under 1.4 s
                sale(1002, 0, 300, 900, 300), // the warm-up goods: no sale, every request rejected
                sale(1003, 1000, 5000, 2600, 10)); // the time-to-answer sale
    }

    static <T> T under(Locale locale, Supplier<T> render) {
        Locale before = Locale.getDefault();
        Locale.setDefault(locale);
        try {
            return render.get();
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void theTextAndThePageAreTheSameUnderAGermanOrFrenchLocale_andEveryCoordinateIsANumberWithADot() {
        List<GoodsReport> reports = demo();
        String html = under(Locale.US, () -> HtmlReport.render("demo", reports));
        String text = under(Locale.US, () -> TextReport.render(reports));
        for (Locale l : List.of(Locale.GERMANY, Locale.FRANCE)) {
            assertThat(under(l, () -> HtmlReport.render("demo", reports)))
                    .as("page under " + l)
                    .isEqualTo(html);
            assertThat(under(l, () -> TextReport.render(reports)))
                    .as("text under " + l)
                    .isEqualTo(text);
        }
        String germanPage = under(Locale.GERMANY, () -> HtmlReport.render("demo", reports));
        Matcher points = Pattern.compile(" points=\"([^\"]*)\"").matcher(germanPage);
        int lines = 0;
        while (points.find()) {
            lines++;
            assertThat(points.group(1)).matches("(-?\\d+\\.\\d,-?\\d+\\.\\d )+");
        }
        assertThat(lines).isPositive();
        Matcher coords = Pattern.compile(" (?:x|y|x1|y1|x2|y2|width|height)=\"([^\"]*)\"")
                .matcher(germanPage);
        while (coords.find()) assertThat(coords.group(1)).matches("-?\\d+(\\.\\d)?");
        assertThat(under(Locale.GERMANY, () -> TextReport.render(reports))).contains("8,000 requests decided");
    }

    @Test
    void theReaderSeesEveryGoods_seriesWithPoints_ticksAndUnits_theSellOut_andNoLabelOnAnother() throws Exception {
        String html = HtmlReport.render("demo", demo());
        Files.writeString(
                Path.of("target", "report-charts.html"), html); // to look at: a screenshot in headless Chromium
        for (long g : List.of(1001, 1002, 1003)) assertThat(html).contains("id=\"goods-" + g + "\"");
        List<String> charts = SvgLabels.charts(html);
        assertThat(charts)
                .as("three charts per goods; the stock of 1002, 0 throughout, in words")
                .hasSize(8);
        assertThat(html.substring(html.indexOf("id=\"goods-1002\""), html.indexOf("id=\"goods-1003\"")))
                .contains("<b>stock left over time</b>: 0 throughout");
        for (String svg : charts) {
            assertThat(svg).doesNotContain("data-points=\"0\"");
            assertThat(SvgLabels.overlaps(svg))
                    .as("overlapping labels in\n" + svg)
                    .isEmpty();
            for (SvgLabels.Label l : SvgLabels.labels(svg))
                assertThat(l.x0() >= 0 && l.x1() <= SvgCharts.W && l.y0() >= 0 && l.y1() <= SvgCharts.H)
                        .as("label inside the chart: " + l)
                        .isTrue();
            Matcher m = Pattern.compile(" points=\"([^\"]*)\"").matcher(svg);
            while (m.find())
                assertThat(m.group(1).trim().split(" "))
                        .as("points of a series")
                        .hasSizeGreaterThan(1);
        }
        // the 1.4 s sale: 20 ms buckets, ticks in ms, the sell-out marked on both time charts
        String first = html.substring(html.indexOf("id=\"goods-1001\""), html.indexOf("id=\"goods-1002\""));
        assertThat(first)
                .contains("decisions per second by outcome (20 ms buckets)")
                .contains("stock left over time (20 ms buckets)")
                .contains(">decisions/s<")
                .contains(">units<")
                .contains(">SUCCESS<")
                .contains(">SOLD_OUT<");
        assertThat(Pattern.compile(">\\d+ ms<").matcher(first).results().count())
                .as("time ticks in ms")
                .isGreaterThanOrEqualTo(8);
        assertThat(Pattern.compile("class=\"marker\"").matcher(first).results().count())
                .isEqualTo(2);
        assertThat(first).containsPattern(">sold out at \\d+ ms<");
        // the 2.6 s sale: in seconds, 50 ms buckets
        String third = html.substring(html.indexOf("id=\"goods-1003\""));
        assertThat(third).contains("(50 ms buckets)").contains(">0.5 s<", ">1 s<", ">2.5 s<");
    }

    /**
     * The same page in headless Chromium at 1280×800, measured by the browser: the boxes of its labels as drawn, not
     * estimated; screenshots of the window and of the whole page in target/ to look at.
     */
    @Test
    void inChromiumAt1280x800_everyGoods_everySeriesDrawn_noLabelOnAnotherOrOutsideItsChart_nothingPastTheRight()
            throws Exception {
        Path page = Path.of("target", "report-charts.html");
        Files.writeString(page, HtmlReport.render("demo", demo()));
        PageLayout layout = HeadlessChromium.measure(page);
        assertThat(layout.viewportWidth()).as("the window's width").isEqualTo(HeadlessChromium.WIDTH);
        assertThat(layout.goods()).containsExactly("goods-1001", "goods-1002", "goods-1003");
        assertThat(layout.charts())
                .as("three charts per goods; the stock of 1002 in words")
                .hasSize(8);
        assertThat(layout.overlaps()).as("labels on top of each other").isEmpty();
        assertThat(layout.outside()).as("labels outside their chart").isEmpty();
        assertThat(layout.undrawn()).as("charts or series not drawn").isEmpty();
        assertThat(layout.scrollWidth()).as("the page's width at 1280 px").isLessThanOrEqualTo(HeadlessChromium.WIDTH);
        assertThat(layout.wide())
                .as("past the page's column or scrolling sideways")
                .isEmpty();
        assertThat(layout.errors()).as("script errors").isEmpty();
        HeadlessChromium.screenshot(page, Path.of("target", "report-1280x800.png"));
        HeadlessChromium.screenshot(page, Path.of("target", "report-1280-full.png"), layout.scrollHeight());
    }

    @Test
    void theBucketFollowsTheSaleLength() {
        assertThat(HtmlReport.bucketMs(1_400)).isEqualTo(20);
        assertThat(HtmlReport.bucketMs(800)).isEqualTo(10);
        assertThat(HtmlReport.bucketMs(9_000)).isEqualTo(100);
        assertThat(HtmlReport.bucketMs(90_000)).isEqualTo(1_000);
        assertThat(HtmlReport.bucketMs(30)).isEqualTo(1);
    }
}
