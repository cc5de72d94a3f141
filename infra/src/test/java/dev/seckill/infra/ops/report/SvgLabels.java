package dev.seckill.infra.ops.report;

import dev.seckill.infra.harness.SvgCharts;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a reader sees of the charts of a page, read back from its SVG: each chart's text labels with their boxes (the
 * same width estimate as {@link SvgCharts#textWidth}, the font's height from its size: 0.9 em above the
 * baseline to 0.3 em below, as Chromium draws an 11 px sans-serif), and which of them overlap.
 */
public final class SvgLabels {
    private static final Pattern SVG = Pattern.compile("<svg class=\"chart\"(.*?)</svg>", Pattern.DOTALL);
    private static final Pattern TEXT = Pattern.compile(
            "<text x=\"([^\"]+)\" y=\"([^\"]+)\" text-anchor=\"(start|middle|end)\" font-size=\"(\\d+)\"[^>]*>(.*?)</text>");

    /** One label: its text and its box. */
    public record Label(String text, double x0, double y0, double x1, double y1) {
        boolean overlaps(Label o) {
            return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1;
        }
    }

    private SvgLabels() {}

    /** The SVG of each chart of a page. */
    public static List<String> charts(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = SVG.matcher(html);
        while (m.find()) out.add(m.group());
        return out;
    }

    public static List<Label> labels(String svg) {
        List<Label> out = new ArrayList<>();
        Matcher m = TEXT.matcher(svg);
        while (m.find()) {
            double x = Double.parseDouble(m.group(1));
            double y = Double.parseDouble(m.group(2));
            int size = Integer.parseInt(m.group(4));
            String text = m.group(5).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
            double w = SvgCharts.textWidth(text, size);
            double x0 = switch (m.group(3)) {
                case "middle" -> x - w / 2;
                case "end" -> x - w;
                default -> x;
            };
            out.add(new Label(text, x0, y - 0.9 * size, x0 + w, y + 0.3 * size));
        }
        return out;
    }

    /** Every pair of labels of one chart whose boxes overlap, as "a / b". */
    public static List<String> overlaps(String svg) {
        List<Label> ls = labels(svg);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ls.size(); i++)
            for (int j = i + 1; j < ls.size(); j++)
                if (ls.get(i).overlaps(ls.get(j)))
                    out.add(ls.get(i).text() + " / " + ls.get(j).text());
        return out;
    }
}
