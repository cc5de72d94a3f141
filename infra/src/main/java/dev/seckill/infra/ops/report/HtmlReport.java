package dev.seckill.infra.ops.report;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Html;
import dev.seckill.infra.harness.SvgCharts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report as one self-contained HTML page (no server, no network, no external script), one column no wider than a
 * laptop's screen: per goods of the namespace the text figures and three charts — decisions per second by outcome and
 * the stock left, both over the sale in time buckets chosen from its length ({@link #bucketMs}) with the sell-out
 * marked, and the accept → decision latency histogram.
 * A few lines of inline script count the charts that have data into {@code body[data-charts]} (and any script error
 * into {@code body[data-errors]}), which is what the headless-browser check reads.
 */
public final class HtmlReport {
    /** About this many time buckets on a chart: 20 ms for a sale decided in 1.4 s, 1 s for one of a minute and a half. */
    static final int BUCKETS = 100;

    private HtmlReport() {}

    public static String render(String title, List<GoodsReport> reports) {
        return render(title, reports, "");
    }

    /** The page with {@code section} (HTML, e.g. a drill's {@link DrillDiff}) after the goods. */
    public static String render(String title, List<GoodsReport> reports, String section) {
        StringBuilder b = new StringBuilder("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                        + "<meta name=\"viewport\" content=\"width=device-width\"><title>")
                .append(Html.escape(title))
                .append("</title><style>body{font-family:sans-serif;margin:1.5em auto;max-width:920px;padding:0 1em}"
                        + "figure{margin:1em 0}figcaption{font-weight:bold}"
                        + "pre{background:#f5f5f5;padding:1em;overflow-x:auto}</style></head><body>")
                .append("<h1>")
                .append(Html.escape(title))
                .append("</h1>");
        if (reports.size() > 1) {
            b.append("<p>goods: ");
            for (GoodsReport r : reports)
                b.append("<a href=\"#goods-")
                        .append(r.goodsId())
                        .append("\">")
                        .append(r.goodsId())
                        .append("</a> ");
            b.append("</p>");
        }
        for (GoodsReport r : reports) {
            b.append("<section class=\"goods\" id=\"goods-")
                    .append(r.goodsId())
                    .append("\"><h2>goods ")
                    .append(r.goodsId())
                    .append("</h2><pre>")
                    .append(Html.escape(TextReport.render(List.of(r))))
                    .append("</pre>");
            if (r.outcomes().isEmpty() && r.stockOverTime().isEmpty()) {
                b.append("<p>No decision and no stock change for this goods.</p></section>");
                continue;
            }
            b.append(decisionsPerSecond(r))
                    .append(stockOverTime(r))
                    .append(latencyHistogram(r))
                    .append("</section>");
        }
        return b.append(section)
                .append(
                        "<script>window.onerror=function(m){document.body.dataset.errors=(document.body.dataset.errors||'')+m;};"
                                + "document.body.dataset.charts=Array.from(document.querySelectorAll('svg.chart'))"
                                + ".filter(function(s){return +s.dataset.points>0;}).length;</script></body></html>")
                .toString();
    }

    /** A round bucket (1, 2 or 5 × 10ⁿ ms) giving about {@link #BUCKETS} buckets over {@code spanMs}. */
    static long bucketMs(long spanMs) {
        double raw = Math.max(1, spanMs / (double) BUCKETS);
        long mag = 1;
        while (mag * 10 <= raw) mag *= 10;
        for (long m : new long[] {1, 2, 5, 10}) if (m * mag >= raw) return m * mag;
        return 10 * mag;
    }

    /** Where the time axes start: the first decision (or the first stock change of a goods without decisions). */
    static Instant origin(GoodsReport r) {
        if (!r.outcomes().isEmpty()) return r.outcomes().get(0).decidedAt();
        return r.stockOverTime().isEmpty()
                ? Instant.EPOCH
                : r.stockOverTime().get(0).at();
    }

    /** The span the time axes cover: from the origin to the last decision, or to the sell-out when later. */
    static long spanMs(GoodsReport r) {
        Instant origin = origin(r);
        Instant end = r.outcomes().isEmpty()
                ? r.stockOverTime().get(r.stockOverTime().size() - 1).at()
                : r.outcomes().get(r.outcomes().size() - 1).decidedAt();
        if (r.soldOutAt() != null && r.soldOutAt().isAfter(end)) end = r.soldOutAt();
        return Math.max(1, Duration.between(origin, end).toMillis());
    }

    private static List<SvgCharts.Marker> soldOut(GoodsReport r) {
        if (r.soldOutAt() == null) return List.of();
        double s = Duration.between(origin(r), r.soldOutAt()).toMillis() / 1000.0;
        return List.of(
                new SvgCharts.Marker(s, "sold out at " + SvgCharts.fmt(s < 2 ? s * 1000 : s) + (s < 2 ? " ms" : " s")));
    }

    /** Decisions per second of each outcome kind over the sale, in buckets of {@link #bucketMs}. */
    static String decisionsPerSecond(GoodsReport r) {
        List<Outcome> os = r.outcomes();
        long bucket = bucketMs(spanMs(r));
        String title = "decisions per second by outcome (" + bucket + " ms buckets)";
        if (os.isEmpty()) return SvgCharts.lines(title, "decisions/s", 1, Map.of(), List.of());
        Instant first = origin(r);
        int n = (int) (spanMs(r) / bucket) + 1;
        Map<String, double[]> series = new LinkedHashMap<>();
        for (OutcomeKind k : OutcomeKind.values()) series.put(k.name(), new double[n]);
        for (Outcome o : os) {
            int i = (int) Math.min(n - 1, Duration.between(first, o.decidedAt()).toMillis() / bucket);
            series.get(o.outcome().name())[i] += 1000.0 / bucket;
        }
        series.values().removeIf(v -> Arrays.stream(v).allMatch(x -> x == 0));
        return SvgCharts.lines(title, "decisions/s", bucket / 1000.0, series, soldOut(r));
    }

    /** The stock left at the end of each time bucket (the last ledger entry at or before it), on the same time axis. */
    static String stockOverTime(GoodsReport r) {
        List<GoodsReport.StockPoint> points = r.stockOverTime();
        if (points.isEmpty()) // said in words, not an empty frame: no sale was opened, so no stock ever changed
        return "<p class=\"no-stock\"><b>stock left over time</b>: no stock change (no sale of this goods was opened"
                    + " in this namespace)</p>";
        if (points.stream().allMatch(sp -> sp.stock() == 0)) // a line lying on the x axis reads as an empty chart
        return "<p class=\"no-stock\"><b>stock left over time</b>: 0 throughout (the sale had no unit to sell)</p>";
        Instant first = origin(r);
        long bucket = bucketMs(spanMs(r));
        int n = (int) (spanMs(r) / bucket) + 1;
        double[] ys = new double[n];
        int p = 0;
        for (int i = 0; i < n; i++) {
            Instant end = first.plusMillis((i + 1) * bucket);
            while (p + 1 < points.size() && points.get(p + 1).at().isBefore(end)) p++;
            ys[i] = points.get(p).stock();
        }
        return SvgCharts.lines(
                "stock left over time (" + bucket + " ms buckets)",
                "units",
                bucket / 1000.0,
                Map.of("stock", ys),
                soldOut(r));
    }

    /** Requests per accept → decision latency bucket (doubling widths, in ms). */
    static String latencyHistogram(GoodsReport r) {
        long[] latency = r.latencyMs();
        List<String> labels = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        long lo = 0;
        for (long hi = 1; lo <= (latency.length == 0 ? 0 : latency[latency.length - 1]); hi *= 2) {
            long from = lo;
            long to = hi;
            labels.add(from == 0 ? "<1" : from + "–" + to);
            counts.add(Arrays.stream(latency).filter(v -> v >= from && v < to).count());
            lo = hi;
        }
        return SvgCharts.bars(
                "accept → decision latency (requests per bucket; p50 " + r.latencyQuantileMs(0.5) + " ms, p99 "
                        + r.latencyQuantileMs(0.99) + " ms)",
                "ms from the gateway's 202 to the decision",
                labels,
                counts.stream().mapToLong(Long::longValue).toArray());
    }
}
