package dev.seckill.infra.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;

/**
 * Charts as inline SVG (no script, no network): series of points drawn as polylines on shared axes, and bars. Both
 * axes have ticks with their values and units; the legend is one row above the plot; a {@link Marker} (e.g. the
 * sell-out) is a dashed vertical line with its label. Every number is written with {@link Locale#ROOT} ({@code 40.5},
 * never {@code 40,5}: a comma would break the SVG's coordinate lists under a German or French default locale). Labels
 * are placed so that their boxes, as {@link #textWidth} estimates them, never overlap. Each chart carries
 * {@code data-points}, the number of data points it drew, so a browser check can see it has data.
 */
public final class SvgCharts {
    public static final String[] COLOURS = {"#2e7d32", "#c62828", "#ef6c00", "#6a1b9a", "#1565c0"};
    public static final int W = 880;
    public static final int H = 260;
    static final int LEFT = 64;
    static final int RIGHT = 24;
    static final int TOP = 34;
    static final int BOTTOM = 46;
    static final int FONT = 11;
    /** The x axis' tick labels' baseline below the axis: their text box (from 0.9 em above the baseline, as Chromium
     * draws it) clears the y axis' "0" next to them. */
    static final int TICK_LABEL = 18;

    /** A dashed vertical line at {@code x} (in the x axis' unit) with a label, e.g. where the stock reached 0. */
    public record Marker(double x, String label) {}

    private SvgCharts() {}

    /**
     * Lines over a time axis: {@code series} name → y values, value {@code i} at {@code i * xStepSeconds} seconds.
     *
     * @param yUnit what the y values are, shown by the y axis ("decisions/s", "units")
     */
    public static String lines(
            String title, String yUnit, double xStepSeconds, Map<String, double[]> series, List<Marker> markers) {
        int n = series.values().stream().mapToInt(v -> v.length).max().orElse(0);
        double yMax =
                series.values().stream().flatMapToDouble(Arrays::stream).max().orElse(0);
        double xMax = Math.max(xStepSeconds, (n - 1) * xStepSeconds);
        StringBuilder b = open(title, n * series.size());
        double[] yTicks = yAxis(b, yMax, yUnit);
        timeAxis(b, xMax);
        double top = yTicks[yTicks.length - 1];
        int i = 0;
        double legendX = LEFT;
        for (Map.Entry<String, double[]> s : series.entrySet()) {
            int kind = List.of("SUCCESS", "SOLD_OUT", "DUPLICATE", "REJECTED").indexOf(s.getKey());
            String colour = COLOURS[(kind < 0 ? i : kind) % COLOURS.length]; // an outcome has its colour on every chart
            b.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"1.5\" points=\"");
            double[] ys = s.getValue();
            for (int x = 0; x < ys.length; x++)
                b.append(num(px(x * xStepSeconds, xMax)))
                        .append(',')
                        .append(num(py(ys[x], top)))
                        .append(' ');
            b.append("\"/>");
            b.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%s\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>",
                    num(legendX),
                    TOP - 24,
                    colour));
            text(b, legendX + 14, TOP - 15, "start", "", s.getKey());
            legendX += 14 + textWidth(s.getKey(), FONT) + 18;
            i++;
        }
        double lastLabelEnd = -1;
        for (Marker m : markers) {
            double x = px(m.x(), xMax);
            b.append(String.format(
                    Locale.ROOT,
                    "<line class=\"marker\" x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" stroke=\"#000\""
                            + " stroke-dasharray=\"4 3\"/>",
                    num(x),
                    TOP,
                    num(x),
                    H - BOTTOM));
            double w = textWidth(m.label(), FONT);
            // the label on the left of its line when the right has no room
            boolean left = x + 4 + w > W - RIGHT;
            double start = left ? x - 4 - w : x + 4;
            if (start > lastLabelEnd) {
                text(b, left ? x - 4 : x + 4, TOP + 12, left ? "end" : "start", "", m.label());
                lastLabelEnd = start + w;
            }
        }
        return b.append("</svg></figure>").toString();
    }

    /** Bars with a label each on a y axis with ticks (labels that would not fit are thinned out); {@code xUnit} under. */
    public static String bars(String title, String xUnit, List<String> labels, long[] values) {
        long max = Arrays.stream(values).max().orElse(0);
        StringBuilder b = open(title, values.length);
        double[] yTicks = yAxis(b, max, "");
        double top = yTicks[yTicks.length - 1];
        double slot = (W - LEFT - RIGHT) / (double) Math.max(1, values.length);
        double widest =
                labels.stream().mapToDouble(l -> textWidth(l, FONT)).max().orElse(0);
        int every = Math.max(1, (int) Math.ceil((widest + 8) / slot));
        for (int i = 0; i < values.length; i++) {
            double x = LEFT + i * slot;
            double y = py(values[i], top);
            b.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"><title>%s: %d</title></rect>",
                    num(x + 1),
                    num(y),
                    num(Math.max(1, slot - 2)),
                    num(H - BOTTOM - y),
                    COLOURS[4],
                    Html.escape(labels.get(i)),
                    values[i]));
            String value = fmt(values[i]);
            if (values[i] > 0 && textWidth(value, FONT) + 4 < slot) text(b, x + slot / 2, y - 3, "middle", "", value);
            if (i % every == 0) text(b, x + slot / 2, H - BOTTOM + TICK_LABEL, "middle", "", labels.get(i));
        }
        if (!xUnit.isEmpty()) text(b, LEFT + (W - LEFT - RIGHT) / 2.0, H - 8, "middle", "", xUnit);
        return b.append("</svg></figure>").toString();
    }

    /** Estimated width of {@code s} in px at {@code size} in a sans-serif font (a generous 0.62 em per character). */
    public static double textWidth(String s, int size) {
        return s.codePointCount(0, s.length()) * 0.62 * size;
    }

    private static StringBuilder open(String title, int points) {
        return new StringBuilder(String.format(
                Locale.ROOT,
                "<figure><figcaption>%s</figcaption><svg class=\"chart\" data-points=\"%d\" width=\"%d\""
                        + " height=\"%d\" viewBox=\"0 0 %d %d\" style=\"max-width:100%%;height:auto\""
                        + " font-family=\"sans-serif\" font-size=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">",
                Html.escape(title),
                points,
                W,
                H,
                W,
                H,
                FONT));
    }

    /** The y axis with 3 to 6 round ticks from 0, each with a grid line; returns the tick values. */
    private static double[] yAxis(StringBuilder b, double max, String unit) {
        double[] ticks = ticks(max, 5);
        double top = ticks[ticks.length - 1];
        line(b, LEFT, TOP, LEFT, H - BOTTOM, "#555");
        line(b, LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM, "#555");
        for (double t : ticks) {
            double y = py(t, top);
            if (t > 0) line(b, LEFT, y, W - RIGHT, y, "#e0e0e0");
            line(b, LEFT - 4, y, LEFT, y, "#555");
            text(b, LEFT - 6, y + 4, "end", "", fmt(t));
        }
        if (!unit.isEmpty()) text(b, W - RIGHT, TOP - 15, "end", "", unit);
        return ticks;
    }

    /** The x axis of seconds from 0 to {@code max}: round ticks in ms (0.5 s is one), shown in ms below 2 s, in s above. */
    private static void timeAxis(StringBuilder b, double max) {
        double maxMs = max * 1000;
        DoubleFunction<String> label = t -> max < 2 ? fmt(t) + " ms" : fmt(t / 1000) + " s";
        int wanted = 10;
        double[] ticks;
        while (true) {
            ticks = ticks(maxMs, wanted);
            double spacing = (W - LEFT - RIGHT) * (ticks.length > 1 ? ticks[1] : maxMs) / Math.max(1e-9, maxMs);
            double widest = 0;
            for (double t : ticks) widest = Math.max(widest, textWidth(label.apply(t), FONT));
            if (spacing >= widest + 10 || wanted <= 2) break;
            wanted--;
        }
        for (double t : ticks) {
            if (t > maxMs + 1e-9) break;
            double x = px(t / 1000, max);
            line(b, x, H - BOTTOM, x, H - BOTTOM + 4, "#555");
            text(b, x, H - BOTTOM + TICK_LABEL, "middle", "", label.apply(t));
        }
        text(b, LEFT + (W - LEFT - RIGHT) / 2.0, H - 8, "middle", "", "time since the first decision");
    }

    /** Round ticks 0, step, 2·step, … up to at least {@code max}, about {@code count} of them (step 1, 2 or 5 ×10ⁿ). */
    static double[] ticks(double max, int count) {
        if (max <= 0) return new double[] {0, 1};
        double raw = max / Math.max(1, count);
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = mag;
        for (double m : new double[] {1, 2, 5, 10}) {
            step = m * mag;
            if (step >= raw) break;
        }
        if (max >= 1 && step < 1) step = 1; // counts and units: no 0.5 tick
        List<Double> out = new ArrayList<>();
        for (int i = 0; ; i++) {
            double t = i * step;
            out.add(t);
            if (t >= max - 1e-9) break;
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static void line(StringBuilder b, double x1, double y1, double x2, double y2, String colour) {
        b.append(String.format(
                Locale.ROOT,
                "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\"/>",
                num(x1),
                num(y1),
                num(x2),
                num(y2),
                colour));
    }

    private static void text(StringBuilder b, double x, double y, String anchor, String style, String s) {
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"%s\" y=\"%s\" text-anchor=\"%s\" font-size=\"%d\"%s>%s</text>",
                num(x),
                num(y),
                anchor,
                FONT,
                style,
                Html.escape(s)));
    }

    private static double px(double x, double xMax) {
        return LEFT + (W - LEFT - RIGHT) * (xMax <= 0 ? 0 : x / xMax);
    }

    private static double py(double y, double top) {
        return H - BOTTOM - (top <= 0 ? 0 : (H - BOTTOM - TOP) * y / top);
    }

    /** A coordinate: one decimal, a dot, whatever the default locale. */
    public static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** A value shown to the reader: thousands with a comma, up to two decimals, the same under every locale. */
    public static String fmt(double v) {
        if (v == Math.rint(v)) return String.format(Locale.ROOT, "%,d", (long) v);
        String s = String.format(Locale.ROOT, "%,.2f", v);
        return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
