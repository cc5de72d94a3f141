package dev.seckill.infra.ops.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A page as a headless browser laid it out ({@link HeadlessChromium#measure}, written by layout-check.js): the viewport,
 * how wide and tall the document is, the ids of the goods sections ({@code goods-…}) and the h1/h2 headings present,
 * what passes the right edge of the page's column, script errors, and per chart ({@code <svg>}) its labels' boxes.
 */
public record PageLayout(
        int viewportWidth,
        int viewportHeight,
        int scrollWidth,
        int scrollHeight,
        List<String> goods,
        List<String> headings,
        List<Chart> charts,
        List<String> wide,
        List<String> errors) {

    /** A box in CSS pixels of the page. */
    public record Box(double x0, double y0, double x1, double y1) {}

    /** A label ({@code <text>}) and its box as drawn. */
    public record Label(String text, double x0, double y0, double x1, double y1) {}

    /** A polyline or path: its points and the size of its box. */
    public record Series(String kind, int points, double width, double height) {}

    /** A bar (a rect with a title "label: value"): its value and the size of its box. */
    public record Bar(String title, double value, double width, double height) {}

    /**
     * One chart: its caption, its box, the points it says it drew ({@code data-points}), its labels, the pairs of labels
     * whose boxes overlap by more than 1 px² ("a / b (area)"), the labels not inside its box, its lines and bars.
     */
    public record Chart(
            String caption,
            Box box,
            int dataPoints,
            List<Label> texts,
            List<String> overlaps,
            List<String> outside,
            List<Series> series,
            List<Bar> bars) {

        /** What the chart does not show: no data, a line of fewer than 2 points or of no size, a bar of a value without area. */
        List<String> undrawn() {
            List<String> out = new ArrayList<>();
            if (dataPoints <= 0) out.add("no data (data-points " + dataPoints + ")");
            if (series.isEmpty() && bars.isEmpty()) out.add("neither a line nor a bar");
            for (Series s : series) if (s.points() < 2 || (s.width() <= 0 && s.height() <= 0)) out.add("a " + s);
            for (Bar b : bars) if (b.value() > 0 && (b.width() <= 0 || b.height() <= 0)) out.add("a " + b);
            return out;
        }
    }

    /** Every pair of labels of one chart on top of each other, as "caption: a / b (area)". */
    public List<String> overlaps() {
        return each(Chart::overlaps);
    }

    /** Every label outside its chart's box, as "caption: label". */
    public List<String> outside() {
        return each(Chart::outside);
    }

    /** Every chart without data or with a series or bar not drawn, as "caption: what". */
    public List<String> undrawn() {
        return each(Chart::undrawn);
    }

    private List<String> each(Function<Chart, List<String>> of) {
        List<String> out = new ArrayList<>();
        for (Chart c : charts) for (String s : of.apply(c)) out.add(c.caption() + ": " + s);
        return out;
    }
}
