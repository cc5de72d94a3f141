package dev.seckill.infra.ops.report;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.infra.harness.Html;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A drill namespace's outcomes beside the recorded ones (the namespace it was copied from), purchase by purchase (a
 * purchase is the pair goods, requestId): how many the drill decided as recorded, how many with the same outcome but
 * another stock after it (a drill that changed the sale shifts them), how many otherwise (each with both outcomes), and
 * how many it decided that the recording has no outcome for. {@code ./seckill report} shows it for a
 * drill namespace.
 */
public record DrillDiff(String against, long identical, long shifted, List<Difference> differences, long notRecorded) {
    /** How many differences the text and the page list. */
    static final int SHOWN = 20;

    public record Difference(long goodsId, String requestId, Outcome recorded, Outcome drill) {
        String change() {
            return said(recorded) + " -> " + said(drill);
        }

        private static String said(Outcome o) {
            return o.outcome() + (o.reason() == null ? "" : " " + o.reason()) + " (stock after " + o.stockAfter() + ")";
        }
    }

    public static DrillDiff of(String against, List<Outcome> recorded, List<Outcome> drilled) {
        Map<String, Outcome> was = new HashMap<>();
        for (Outcome o : recorded) was.put(o.goodsId() + ":" + o.requestId(), o);
        long identical = 0;
        long shifted = 0;
        long notRecorded = 0;
        List<Difference> differences = new ArrayList<>();
        for (Outcome now : drilled) {
            Outcome before = was.get(now.goodsId() + ":" + now.requestId());
            if (before == null) notRecorded++;
            else if (before.withoutRunFields().equals(now.withoutRunFields())) identical++;
            else if (before.outcome() == now.outcome() && Objects.equals(before.reason(), now.reason())) shifted++;
            else differences.add(new Difference(now.goodsId(), now.requestId(), before, now));
        }
        return new DrillDiff(against, identical, shifted, List.copyOf(differences), notRecorded);
    }

    public String text() {
        StringBuilder b = new StringBuilder(String.format(
                Locale.ROOT,
                "drill vs recorded (%s): %,d identical, %,d shifted (same outcome, other stock after), %,d differing,"
                        + " %,d not in the recording%n",
                against,
                identical,
                shifted,
                differences.size(),
                notRecorded));
        for (Difference d : differences.subList(0, Math.min(SHOWN, differences.size())))
            b.append(String.format(Locale.ROOT, "  goods %d %-24s %s%n", d.goodsId(), d.requestId(), d.change()));
        if (differences.size() > SHOWN)
            b.append(String.format(Locale.ROOT, "  … and %,d more%n", differences.size() - SHOWN));
        return b.toString();
    }

    public String html() {
        StringBuilder b = new StringBuilder("<section id=\"drill\"><h2>The drill against the recording</h2><p>")
                .append(Html.escape(String.format(
                        Locale.ROOT,
                        "Against %s: %,d decided as recorded, %,d with the same outcome and another stock after it,"
                                + " %,d otherwise, %,d not in the recording.",
                        against,
                        identical,
                        shifted,
                        differences.size(),
                        notRecorded)))
                .append("</p>");
        if (differences.isEmpty())
            return b.append("<p>No purchase was decided otherwise.</p></section>")
                    .toString();
        b.append("<table><tr><th>goods</th><th>requestId</th><th>recorded → drill</th></tr>");
        for (Difference d : differences.subList(0, Math.min(SHOWN, differences.size())))
            b.append("<tr><td>")
                    .append(d.goodsId())
                    .append("</td><td>")
                    .append(Html.escape(d.requestId()))
                    .append("</td><td>")
                    .append(Html.escape(d.change().replace("->", "→")))
                    .append("</td></tr>");
        return b.append("</table></section>").toString();
    }
}
