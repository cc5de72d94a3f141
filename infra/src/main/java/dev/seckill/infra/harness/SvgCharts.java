package dev.seckill.infra.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Charts as inline SVG (no script, no network): series of points drawn as polylines on shared axes, and bars.
 * Each chart carries {@code data-points}, the number of data points it drew, so a browser check can see it has data.
 */
public final class SvgCharts {
    public static final String[] COLOURS = {"#2e7d32", "#c62828", "#ef6c00", "#6a1b9a", "#1565c0"};
    private static final int W = 640;
    private static final int H = 220;
    private static final int PAD = 40;

    private SvgCharts() {}

    /** Lines over a shared x (seconds) and y axis; {@code series} name → y values, one per x step. */
    public static String lines(String title, String xLabel, double xStep, Map<String, double[]> series) {
        int n = series.values().stream().mapToInt(v -> v.length).max().orElse(0);
        double max =
                series.values().stream().flatMapToDouble(Arrays::stream).max().orElse(0);
        StringBuilder b = open(title, n * series.size());
        axes(b, xLabel, (n - 1) * xStep, max);
        int i = 0;
        for (Map.Entry<String, double[]> s : series.entrySet()) {
            String colour = COLOURS[i % COLOURS.length];
            b.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"1.5\" points=\"");
            double[] ys = s.getValue();
            for (int x = 0; x < ys.length; x++)
                b.append(px(x, Math.max(1, n - 1)))
                        .append(',')
                        .append(py(ys[x], max))
                        .append(' ');
            b.append("\"/><text x=\"")
                    .append(W - PAD - 120)
                    .append("\" y=\"")
                    .append(PAD + 14 * i)
                    .append("\" fill=\"")
                    .append(colour)
                    .append("\" font-size=\"11\">")
                    .append(Html.escape(s.getKey()))
                    .append("</text>");
            i++;
        }
        return b.append("</svg>").toString();
    }

    /** Bars with a label each. */
    public static String bars(String title, List<String> labels, long[] values) {
        long max = Arrays.stream(values).max().orElse(0);
        StringBuilder b = open(title, values.length);
        axes(b, "", 0, max);
        double slot = (W - 2.0 * PAD) / Math.max(1, values.length);
        for (int i = 0; i < values.length; i++) {
            double x = PAD + i * slot;
            double y = py(values[i], max);
            b.append(String.format(
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %d</title></rect>",
                    x + 1, y, slot - 2, H - PAD - y, COLOURS[4], Html.escape(labels.get(i)), values[i]));
            if (i % Math.max(1, values.length / 8) == 0) {
                b.append(String.format(
                        "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%s</text>",
                        x, H - PAD + 14, Html.escape(labels.get(i))));
            }
        }
        return b.append("</svg>").toString();
    }

    private static StringBuilder open(String title, int points) {
        return new StringBuilder("<figure><figcaption>")
                .append(Html.escape(title))
                .append("</figcaption>")
                .append("<svg class=\"chart\" data-points=\"")
                .append(points)
                .append("\" width=\"")
                .append(W)
                .append("\" height=\"")
                .append(H)
                .append("\" viewBox=\"0 0 ")
                .append(W)
                .append(' ')
                .append(H)
                .append("\" xmlns=\"http://www.w3.org/2000/svg\">");
    }

    private static void axes(StringBuilder b, String xLabel, double xMax, double yMax) {
        b.append(String.format(
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>", PAD, H - PAD, W - PAD, H - PAD));
        b.append(String.format(
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>", PAD, PAD / 2, PAD, H - PAD));
        b.append(String.format("<text x=\"2\" y=\"%d\" font-size=\"10\">%s</text>", PAD / 2 + 8, fmt(yMax)));
        b.append(String.format("<text x=\"2\" y=\"%d\" font-size=\"10\">0</text>", H - PAD));
        if (!xLabel.isEmpty()) {
            b.append(String.format(
                    "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s (0 to %s)</text>",
                    PAD, H - 8, Html.escape(xLabel), fmt(xMax)));
        }
    }

    private static String px(int x, int n) {
        return String.format("%.1f", PAD + (W - 2.0 * PAD) * x / n);
    }

    private static double py(double y, double max) {
        return H - PAD - (max <= 0 ? 0 : (H - 1.5 * PAD) * y / max);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.format("%,d", (long) v) : String.format("%,.1f", v);
    }
}
