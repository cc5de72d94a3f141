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
 * The report as one self-contained HTML page (no server, no network, no external script): per goods the text figures
 * and three charts — decisions per second by outcome, stock left over time, the accept → decision latency histogram.
 * A few lines of inline script count the charts that have data into {@code body[data-charts]} (and any script error
 * into {@code body[data-errors]}), which is what the headless-browser check reads.
 */
public final class HtmlReport {
    private static final int MAX_BUCKETS = 120;

    private HtmlReport() {}

    public static String render(String title, List<GoodsReport> reports) {
        StringBuilder b = new StringBuilder("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(Html.escape(title))
                .append(
                        "</title><style>body{font-family:sans-serif;margin:2em;max-width:60em}"
                                + "figure{margin:1em 0}figcaption{font-weight:bold}pre{background:#f5f5f5;padding:1em}</style></head><body>")
                .append("<h1>")
                .append(Html.escape(title))
                .append("</h1>");
        for (GoodsReport r : reports) {
            b.append("<section class=\"goods\"><h2>goods ")
                    .append(r.goodsId())
                    .append("</h2><pre>")
                    .append(Html.escape(TextReport.render(List.of(r))))
                    .append("</pre>");
            b.append(decisionsPerSecond(r))
                    .append(stockOverTime(r))
                    .append(latencyHistogram(r))
                    .append("</section>");
        }
        return b.append(
                        "<script>window.onerror=function(m){document.body.dataset.errors=(document.body.dataset.errors||'')+m;};"
                                + "document.body.dataset.charts=Array.from(document.querySelectorAll('svg.chart'))"
                                + ".filter(function(s){return +s.dataset.points>0;}).length;</script></body></html>")
                .toString();
    }

    static String decisionsPerSecond(GoodsReport r) {
        List<Outcome> os = r.outcomes();
        if (os.isEmpty()) return SvgCharts.lines("decisions per second by outcome", "seconds", 1, Map.of());
        Instant first = os.get(0).decidedAt();
        long spanMs = Duration.between(first, os.get(os.size() - 1).decidedAt()).toMillis();
        long bucketMs = Math.max(1000, (spanMs / MAX_BUCKETS / 1000 + 1) * 1000);
        int n = (int) (spanMs / bucketMs) + 1;
        Map<String, double[]> series = new LinkedHashMap<>();
        for (OutcomeKind k : OutcomeKind.values()) series.put(k.name(), new double[n]);
        for (Outcome o : os) {
            int i = (int) (Duration.between(first, o.decidedAt()).toMillis() / bucketMs);
            series.get(o.outcome().name())[i] += 1000.0 / bucketMs;
        }
        series.values().removeIf(v -> Arrays.stream(v).allMatch(x -> x == 0));
        return SvgCharts.lines("decisions per second by outcome", "seconds", bucketMs / 1000.0, series);
    }

    /** The stock left at the end of each time bucket (the last ledger entry at or before it), on a time axis. */
    static String stockOverTime(GoodsReport r) {
        List<GoodsReport.StockPoint> points = r.stockOverTime();
        if (points.isEmpty()) return SvgCharts.lines("stock left over time", "seconds", 1, Map.of());
        Instant first = points.get(0).at();
        long spanMs =
                Duration.between(first, points.get(points.size() - 1).at()).toMillis();
        long bucketMs = Math.max(100, spanMs / MAX_BUCKETS + 1);
        int n = (int) (spanMs / bucketMs) + 1;
        double[] ys = new double[n];
        int p = 0;
        for (int i = 0; i < n; i++) {
            Instant end = first.plusMillis((i + 1) * bucketMs);
            while (p + 1 < points.size() && points.get(p + 1).at().isBefore(end)) p++;
            ys[i] = points.get(p).stock();
        }
        return SvgCharts.lines("stock left over time", "seconds", bucketMs / 1000.0, Map.of("stock", ys));
    }

    static String latencyHistogram(GoodsReport r) {
        long[] latency = r.latencyMs();
        List<String> labels = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        long lo = 0;
        for (long hi = 1; lo <= (latency.length == 0 ? 0 : latency[latency.length - 1]); hi *= 2) {
            long from = lo;
            long to = hi;
            labels.add(from + "-" + to + " ms");
            counts.add(Arrays.stream(latency).filter(v -> v >= from && v < to).count());
            lo = hi;
        }
        return SvgCharts.bars(
                "accept → decision latency (requests per bucket)",
                labels,
                counts.stream().mapToLong(Long::longValue).toArray());
    }
}
