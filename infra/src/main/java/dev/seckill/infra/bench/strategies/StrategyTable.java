package dev.seckill.infra.bench.strategies;

import dev.seckill.infra.bench.TextTable;
import dev.seckill.infra.harness.Html;
import dev.seckill.infra.harness.SvgCharts;
import dev.seckill.infra.harness.audit.StrategyAudit;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/** The comparison table of {@code bench strategies}, as text and as one self-contained HTML page with bar charts. */
final class StrategyTable {

    private StrategyTable() {}

    static void print(PrintStream out, List<StrategyRun.Result> rs, String title) {
        StrategyRun.Result pipe = pipeline(rs);
        out.printf("%n%s%n", title);
        TextTable t = TextTable.of(
                        "strategy",
                        "answers/s",
                        "×pipe",
                        "p50 ms",
                        "p99 ms",
                        "×pipe",
                        "sold",
                        "unsold",
                        "oversold",
                        "dup",
                        "lost",
                        "f.dup",
                        "no ans.",
                        "DB",
                        "restart")
                .right(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
        for (StrategyRun.Result r : rs) {
            StrategyAudit a = r.audit();
            t.row(
                    r.strategy(),
                    String.format("%,.0f", r.answersPerSecond()),
                    ratio(r.answersPerSecond(), pipe == null ? 0 : pipe.answersPerSecond()),
                    String.format("%.1f", r.p50()),
                    String.format("%.1f", r.p99()),
                    ratio(r.p99(), pipe == null ? 0 : pipe.p99()),
                    String.format("%,d", a.sold()),
                    String.format("%,d", a.stockLeft()),
                    a.oversold(),
                    a.duplicateBuyers(),
                    a.lost(),
                    String.format("%,d", a.falseDuplicates()),
                    String.format("%,d", r.noAnswer()),
                    r.peakActiveConnections(),
                    r.faultMillis() < 0 ? "-" : String.format("%,d ms", r.faultMillis()));
        }
        out.print(t.text());
        for (StrategyRun.Result r : rs) out.printf("  %-10s answers: %s%n", r.strategy(), outcomes(r.outcomes()));
        for (StrategyRun.Result r : rs) {
            StrategyRun.FirstSecond f = r.firstSecond();
            out.printf(
                    "  %-10s first second: %,d requests sent in it, time to answer %s%n",
                    r.strategy(),
                    f.requests(),
                    Double.isNaN(f.p50())
                            ? "- (none answered)"
                            : String.format("p50 %.1f ms, p99 %.1f ms", f.p50(), f.p99()));
            if (f.hops() != null) out.printf("  %-10s   of them %s%n", "", f.hops());
        }
        out.printf("  (unsold: DB stock left; dup: duplicate buyers; lost: answered SUCCESS, no order; f.dup: told"
                + " DUPLICATE, no order; no ans.: never answered in a minute; DB: connections in use at peak)%n");
    }

    static String html(StrategyRun.Workload w, List<StrategyRun.Result> normal, List<StrategyRun.Result> faulted) {
        // one column no wider than a laptop's screen: the table has a column per strategy (a row per figure), the
        // charts are blocks one under the other, and a figure that is 0 for every strategy is said in one line
        StringBuilder b = new StringBuilder("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width\"><title>bench strategies</title><style>"
                + "body{font-family:sans-serif;margin:1.5em auto;max-width:920px;padding:0 1em}"
                + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px}"
                + "td{text-align:right}th{text-align:left;font-weight:normal}thead th{font-weight:bold;text-align:right}"
                + "figure{display:block;margin:1em 0}figcaption{font-weight:bold}p.zero{margin:.4em 0}</style>"
                + "</head><body><h1>Deduct strategies, one sale, one machine</h1>");
        b.append(String.format(
                Locale.ROOT,
                "<p>%,d units, %,d purchases from %d concurrent buyers over %,d buyers, one unit per buyer.</p>",
                w.stock(),
                w.requests(),
                w.concurrency(),
                w.users()));
        section(b, "Normal run", normal);
        if (!faulted.isEmpty()) section(b, "Serving processes SIGKILLed once mid-sale, then restarted", faulted);
        return b.append("</body></html>").toString();
    }

    private static void section(StringBuilder b, String title, List<StrategyRun.Result> rs) {
        b.append("<h2>").append(Html.escape(title)).append("</h2><table><thead><tr><th></th>");
        for (StrategyRun.Result r : rs)
            b.append("<th>").append(Html.escape(r.strategy())).append("</th>");
        b.append("</tr></thead><tbody>");
        row(b, "answers/s", rs, r -> String.format(Locale.ROOT, "%,.0f", r.answersPerSecond()));
        row(b, "p50 ms", rs, r -> String.format(Locale.ROOT, "%.1f", r.p50()));
        row(b, "p99 ms", rs, r -> String.format(Locale.ROOT, "%.1f", r.p99()));
        row(
                b,
                "first second: sent",
                rs,
                r -> String.format(Locale.ROOT, "%,d", r.firstSecond().requests()));
        row(b, "its p50 ms", rs, r -> millis(r.firstSecond().p50()));
        row(b, "its p99 ms", rs, r -> millis(r.firstSecond().p99()));
        row(b, "sold", rs, r -> r.audit().sold());
        row(b, "unsold (DB stock left)", rs, r -> r.audit().stockLeft());
        row(b, "oversold", rs, r -> r.audit().oversold());
        row(b, "duplicate buyers", rs, r -> r.audit().duplicateBuyers());
        row(b, "confirmed lost", rs, r -> r.audit().lost());
        row(b, "told duplicate, no order", rs, r -> r.audit().falseDuplicates());
        row(b, "no answer", rs, StrategyRun.Result::noAnswer);
        row(b, "DB connections at peak", rs, StrategyRun.Result::peakActiveConnections);
        row(b, "restart ms", rs, r -> r.faultMillis() < 0 ? "-" : r.faultMillis());
        b.append("</tbody></table>");
        hops(b, rs);
        List<String> names = rs.stream().map(StrategyRun.Result::strategy).toList();
        b.append(chart("answers per second", names, rs, r -> Math.round(r.answersPerSecond()))); // as the table
        b.append(chart("time to answer p99 (ms)", names, rs, r -> Math.round(r.p99())));
        b.append(chart("oversold units", names, rs, r -> r.audit().oversold()));
        b.append(chart("confirmed sales lost", names, rs, r -> r.audit().lost()));
        b.append(chart("units left unsold", names, rs, r -> r.audit().stockLeft()));
        b.append(chart("DB connections in use at peak", names, rs, r -> r.peakActiveConnections()));
    }

    private static void row(
            StringBuilder b, String figure, List<StrategyRun.Result> rs, Function<StrategyRun.Result, Object> v) {
        b.append("<tr><th>").append(Html.escape(figure)).append("</th>");
        for (StrategyRun.Result r : rs)
            b.append("<td>").append(Html.escape(cell(v.apply(r)))).append("</td>");
        b.append("</tr>");
    }

    /** A count with thousands separators, as the other figures ("1,000", not "1000"); text as it is. */
    private static String cell(Object v) {
        return v instanceof Long || v instanceof Integer ? String.format(Locale.ROOT, "%,d", v) : String.valueOf(v);
    }

    /** Under the table: where the first second of each strategy whose answers carry their times went. */
    private static void hops(StringBuilder b, List<StrategyRun.Result> rs) {
        for (StrategyRun.Result r : rs)
            if (r.firstSecond().hops() != null)
                b.append("<p>")
                        .append(Html.escape(r.strategy() + ", first second: of them "
                                + r.firstSecond().hops()))
                        .append("</p>");
    }

    /** A bar per strategy; when the figure is 0 for every strategy, that in one line instead of an empty frame. */
    private static String chart(
            String title, List<String> names, List<StrategyRun.Result> rs, ToLongFunction<StrategyRun.Result> v) {
        long[] values = rs.stream().mapToLong(v).toArray();
        if (Arrays.stream(values).allMatch(x -> x == 0))
            return "<p class=\"zero\"><b>" + Html.escape(title) + "</b>: 0 for every strategy</p>";
        return SvgCharts.bars(title, "", names, values);
    }

    private static StrategyRun.Result pipeline(List<StrategyRun.Result> rs) {
        return rs.stream()
                .filter(r -> r.strategy().equals(StrategyRun.PIPELINE))
                .findFirst()
                .orElse(null);
    }

    /** Milliseconds to one decimal; "-" for none (NaN: nothing answered). */
    private static String millis(double ms) {
        return Double.isNaN(ms) ? "-" : String.format(Locale.ROOT, "%.1f", ms);
    }

    static String ratio(double a, double b) {
        return b <= 0 ? "-" : String.format("×%.2f", a / b);
    }

    private static String outcomes(Map<String, Long> o) {
        return o.entrySet().stream()
                .map(e -> String.format("%s %,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }
}
