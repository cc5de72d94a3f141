package dev.seckill.infra.ops;

import dev.seckill.contracts.outcome.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** A drill's outcomes against the recorded ones, request by request, each difference with why. */
final class ReplayComparison {
    private ReplayComparison() {}

    static ReplayDrill.Result compare(
            ReplayDrill.Options o,
            long copied,
            Set<String> ids,
            Map<String, Outcome> recorded,
            Map<String, Outcome> drilled,
            Set<Long> goodsWithoutOpen,
            Duration took) {
        long identical = 0;
        long shifted = 0;
        List<ReplayDrill.Difference> differences = new ArrayList<>();
        for (String id : ids) {
            Outcome was = recorded.get(id);
            Outcome now = drilled.get(id);
            if (was != null && now != null && was.withoutRunFields().equals(now.withoutRunFields())) {
                identical++;
            } else if (was != null
                    && now != null
                    && o.changesTheSale()
                    && was.outcome() == now.outcome()
                    && Objects.equals(was.reason(), now.reason())) {
                shifted++;
            } else {
                differences.add(new ReplayDrill.Difference(id, was, now, why(was, now, o)));
            }
        }
        return new ReplayDrill.Result(copied, ids.size(), identical, shifted, differences, goodsWithoutOpen, took);
    }

    static String why(Outcome was, Outcome now, ReplayDrill.Options o) {
        if (was == null) return "no recorded outcome (decided outside the window, or never)";
        if (now == null) return "not decided by the drill in time";
        String change = was.outcome() + (was.reason() == null ? "" : " " + was.reason()) + " -> " + now.outcome()
                + (now.reason() == null ? "" : " " + now.reason());
        if (!o.changesTheSale())
            return change + " with the same sale: a determinism break (docs/invariants.md, invariant 6)";
        String sale = (o.stock() != null ? "stock " + o.stock() : "")
                + (o.stock() != null && o.limit() != null ? ", " : "")
                + (o.limit() != null ? "limit " + o.limit() : "");
        return change + " (the drill's sale has " + sale + "; stock after: recorded " + was.stockAfter() + ", drill "
                + now.stockAfter() + ")";
    }
}
