package dev.seckill.infra.ops.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.JsonOutput;
import java.time.Duration;
import java.util.List;

/**
 * {@code ./seckill report --json}: the text report's figures as one JSON document for scripts — per goods the requests,
 * the outcomes by kind and by kind/reason, the opening and sell-out instants, accept → decision quantiles (ms), the
 * orders by status and the units released. Absent figures are {@code null}.
 */
public final class JsonReport {
    private JsonReport() {}

    public static String render(String namespace, List<GoodsReport> reports) {
        ObjectNode root = JsonOutput.object();
        root.put("namespace", namespace);
        ArrayNode goods = root.putArray("goods");
        for (GoodsReport r : reports) {
            ObjectNode g = goods.addObject();
            g.put("goodsId", r.goodsId());
            g.put("requests", r.requests());
            ObjectNode kinds = g.putObject("outcomes");
            for (OutcomeKind k : OutcomeKind.values()) kinds.put(k.name(), r.kind(k));
            ObjectNode reasons = g.putObject("outcomesByReason");
            r.byKindReason().forEach(reasons::put);
            g.put("openedAt", r.openedAt() == null ? null : r.openedAt().toString());
            g.put("soldOutAt", r.soldOutAt() == null ? null : r.soldOutAt().toString());
            putMillis(g, "openToSoldOutMs", r.openToSoldOut());
            putMillis(g, "firstRequestToSoldOutMs", r.firstRequestToSoldOut());
            ObjectNode latency = g.putObject("acceptToDecisionMs");
            if (r.latencyMs().length == 0) {
                latency.putNull("p50").putNull("p99").putNull("max");
            } else {
                latency.put("p50", r.latencyQuantileMs(0.50));
                latency.put("p99", r.latencyQuantileMs(0.99));
                latency.put("max", r.latencyMs()[r.latencyMs().length - 1]);
            }
            ObjectNode orders = g.putObject("orders");
            r.orders().forEach(orders::put);
            g.put("unitsReleased", r.unitsReleased());
            if (!r.buckets().isEmpty()) g.set("buckets", JsonOutput.tree(r.buckets()));
            if (r.lottery() != null) {
                ObjectNode lottery = g.putObject("lottery");
                lottery.put("windowMs", r.lottery().windowMs());
                lottery.put("buyers", r.lottery().buyers());
                lottery.set(
                        "winnersByArrivalQuarter", JsonOutput.tree(r.lottery().winnersByArrivalQuarter()));
            }
        }
        return JsonOutput.render(root);
    }

    private static void putMillis(ObjectNode g, String field, Duration d) {
        if (d == null) g.putNull(field);
        else g.put(field, d.toMillis());
    }
}
