package dev.seckill.infra.bench.hostile;

import dev.seckill.infra.bench.Targets;
import dev.seckill.infra.bench.TextTable;
import dev.seckill.infra.bench.hostile.HostilePhases.Figures;
import dev.seckill.infra.bench.hostile.HostilePhases.Shape;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The table {@code bench hostile} prints at the end, QUIET next to FLOOD with each target (the same figures, as
 * {@code name value} lines: {@link HostileReport}).
 */
final class HostileTable {
    private HostileTable() {}

    static String render(Shape shape, Figures quiet, Figures flood) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                "%n== bench hostile: %,d buyers × %d units of a %,d-unit sale; flood: %d accounts posting made-up goods"
                        + " at %.0f/s each, %d connections of unauthenticated GETs of random ids ==%n",
                shape.buyers(),
                shape.quantity(),
                shape.stock(),
                shape.hostileAccounts(),
                shape.perUserRate(),
                shape.getConnections()));
        TextTable t = TextTable.of("figure", "QUIET", "FLOOD", "target");
        double ratio50 = flood.percentileMillis(50) / quiet.percentileMillis(50);
        double ratio99 = HostileReport.ratio99(quiet, flood);
        t.row(
                "buyers' time to answer p50",
                ms(quiet.percentileMillis(50)),
                ms(flood.percentileMillis(50)) + " (×" + String.format("%.2f", ratio50) + ")",
                "");
        t.row(
                "buyers' time to answer p99",
                ms(quiet.percentileMillis(99)),
                ms(flood.percentileMillis(99)) + " (×" + String.format("%.2f", ratio99) + ")",
                "FLOOD " + Targets.HOSTILE_FLOOD.bound() + " QUIET: " + Targets.HOSTILE_FLOOD.verdict(ratio99));
        t.row("buyers' time to answer max", ms(quiet.percentileMillis(100)), ms(flood.percentileMillis(100)), "");
        t.row("buyers: outcomes", outcomes(quiet), outcomes(flood), "");
        t.row("purchases answered 202 after their wait, then polled", polled(quiet), polled(flood), "");
        t.row("buyers' requests answered (incl. retries and polls)", replies(quiet), replies(flood), "");
        t.row(
                "units sold / stock (oversold)",
                sold(quiet, shape),
                sold(flood, shape),
                "0 oversold: "
                        + met(HostileReport.oversold(quiet, shape) == 0 && HostileReport.oversold(flood, shape) == 0));
        t.row(
                "accepted purchases answered 404 to their owner: while polling + looked up after",
                notFound(quiet),
                notFound(flood),
                "0: " + met(HostileReport.accepted404(quiet) == 0 && HostileReport.accepted404(flood) == 0));
        t.row(
                "claims lost: another account's POST of a buyer's id taken (this gateway; another instance)",
                claims(quiet),
                claims(flood),
                "0: " + met(HostileReport.claimsLost(quiet) == 0 && HostileReport.claimsLost(flood) == 0));
        t.row("machine load average (1 min) after the buyers", load(quiet), load(flood), "");
        t.row("Redis used_memory before → after", memory(quiet), memory(flood), "");
        t.row("Redis keys (DBSIZE) before → after", keys(quiet), keys(flood), "");
        HostileFlood.Counts c = flood.flood();
        t.row(
                "hostile requests sent",
                "—",
                String.format(
                        "%,d in %.1f s (%,.0f/s): %,d POST (%,.0f at the accounts' limit; %,d held back: ten"
                                + " bursts unanswered), %,d GET",
                        c.sent(),
                        c.seconds(),
                        c.sent() / c.seconds(),
                        c.posts(),
                        shape.hostileAccounts() * shape.perUserRate() * c.seconds(),
                        c.postsHeldBack(),
                        c.gets()),
                "");
        t.row("hostile POSTs (made-up goods) answered", "—", answers(c.postAnswers()), "");
        t.row("hostile GETs (random ids) answered", "—", answers(c.getAnswers()), "");
        t.row(
                "Redis growth per million hostile requests (net of the quiet sale's own growth)",
                "—",
                growth(flood, null, c.sent()) + " (" + growth(flood, quiet, c.sent()) + ")",
                "bounded (stated)");
        t.row(
                "… per million hostile POSTs: what writes (net of the quiet sale's own growth)",
                "—",
                growth(flood, null, c.posts()) + " (" + growth(flood, quiet, c.posts()) + ")",
                "");
        b.append(t.markdown());
        b.append("(time to answer: first send of the purchase → final outcome in hand, Prefer: wait=")
                .append(HostileBuyers.WAIT_SECONDS)
                .append(", 202s polled; answers: HTTP status ×count, 0 = no answer)\n");
        return b.toString();
    }

    private static String met(boolean ok) {
        return ok ? "met" : "MISSED";
    }

    private static String ms(double ms) {
        return String.format("%.1f ms", ms);
    }

    private static String outcomes(Figures p) {
        Map<String, Long> by = new LinkedHashMap<>();
        for (String o : p.sale().outcomes()) by.merge(o, 1L, Long::sum);
        return by.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    private static String replies(Figures p) {
        return p.sale().replies().entrySet().stream()
                .map(e -> String.format("%s ×%,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    private static String polled(Figures p) {
        return String.format("%,d of %,d", p.sale().polledCount(), p.sale().buyers());
    }

    private static String sold(Figures p, Shape shape) {
        return String.format("%,d / %,d (%d)", p.unitsSold(), shape.stock(), HostileReport.oversold(p, shape));
    }

    private static String notFound(Figures p) {
        return String.format(
                "%d + %d of %,d (looked up: %,d answered other than the outcome)",
                p.sale().notFoundCount(),
                p.owners().notFound(),
                p.sale().acceptedCount(),
                p.owners().otherThanOutcome());
    }

    private static String claims(Figures p) {
        return String.format(
                "%d of %d (409 ×%d); %d of %d (409 ×%d)",
                p.claimsSame().lost(),
                p.claimsSame().tried(),
                p.claimsSame().refused(),
                p.claimsOther().lost(),
                p.claimsOther().tried(),
                p.claimsOther().refused());
    }

    private static String growth(Figures flood, Figures quiet, long sent) {
        return String.format(
                "%+,.1f MB, %+,.0f keys",
                HostileReport.perMillion(flood, quiet, true, sent) / 1e6,
                HostileReport.perMillion(flood, quiet, false, sent));
    }

    private static String load(Figures p) {
        return String.format(
                "%.1f (%d cores)", p.loadAverage(), Runtime.getRuntime().availableProcessors());
    }

    private static String memory(Figures p) {
        return String.format(
                "%.2f MB → %.2f MB (%+.2f MB)",
                p.before().usedMemory() / 1e6,
                p.after().usedMemory() / 1e6,
                (p.after().usedMemory() - p.before().usedMemory()) / 1e6);
    }

    private static String keys(Figures p) {
        return String.format(
                "%,d → %,d (%+,d)",
                p.before().keys(),
                p.after().keys(),
                p.after().keys() - p.before().keys());
    }

    private static String answers(Map<Integer, Long> byStatus) {
        return byStatus.entrySet().stream()
                .map(e -> String.format("%d ×%,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }
}
