package dev.seckill.infra.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.infra.harness.audit.SaleFacts;
import dev.seckill.infra.harness.buyers.FinalAnswer;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link IdReuse} expects, noted as it goes, and its check after the drain: the gateway's answers (noted at once),
 * then from the topics and the DB: each reuse on {@code <prefix>commands} answered REJECTED invalid with a detail, each
 * purchase decided once (and a refused one never), never two SUCCESS for one (goods, requestId), every SUCCESS exactly
 * its order row, no unit held without an order, and the second goods' invariants.
 */
final class IdReuseCheck {
    private record Purchase(long goods, String requestId, long user, int quantity) {}

    private final ChaosTarget t;
    private final String run;
    private final List<String> wrong = new ArrayList<>();
    private final List<String> answers = new ArrayList<>();
    private final List<Purchase> refused = new ArrayList<>();
    private final List<Purchase> once = new ArrayList<>();
    private final List<Purchase> never = new ArrayList<>();
    private final List<String> details = new ArrayList<>();
    private String burstId;
    private boolean storeFailed;

    IdReuseCheck(ChaosTarget t, String run) {
        this.t = t;
        this.run = run;
    }

    String id(String suffix) {
        return "reuse-" + run + "-" + suffix;
    }

    synchronized void wrong(String what) {
        wrong.add(what);
    }

    /** A refusal the gateway must have answered: {@code code} naming {@code field}. */
    synchronized void gateway(String what, FinalAnswer got, int code, String field) {
        answers.add(what + ": " + got);
        if (got.code() != code || !field.equals(got.field()))
            wrong.add(what + " was answered " + got + ", not " + code + " field=" + field);
    }

    /** A purchase sent again as it was (a retry, in a later sale): its first answer, SUCCESS, and nothing new. */
    synchronized void sameAnswer(String what, FinalAnswer got) {
        answers.add(what + ": " + got);
        if (!got.success()) wrong.add(what + " was answered " + got + ", not its first answer SUCCESS");
    }

    /**
     * Eight requests at once under one id: every answer a refusal (409/422), a SOLD_OUT at the door (nothing sent) or
     * the one purchase let through; on the topics, at most one goods decides a purchase under it (two only if the
     * gateway could not claim the id in its status store in time: it then goes on unclaimed, counted).
     */
    synchronized void burst(String requestId, List<FinalAnswer> got, double storeErrorsBefore) {
        burstId = requestId;
        storeFailed = GatewayCalls.metric(t.pipeline.metricsPort(), "seckill_gateway_status_store_errors")
                > storeErrorsBefore;
        answers.add("8 at once: " + got);
        long through = got.stream()
                .filter(a -> a.code() == 200 && !"SOLD_OUT".equals(a.status()))
                .count();
        for (FinalAnswer a : got)
            if (a.code() != 200 && a.code() != 409 && a.code() != 422) wrong.add("a request of the burst got " + a);
        if (through > 1 && !storeFailed)
            wrong.add(through + " requests of the burst under one id went through: " + got);
    }

    void refused(long goods, String requestId, long user, int quantity) {
        refused.add(new Purchase(goods, requestId, user, quantity));
    }

    void decidedOnce(long goods, String requestId) {
        once.add(new Purchase(goods, requestId, 0, 0));
    }

    void neverDecided(long goods, String requestId) {
        never.add(new Purchase(goods, requestId, 0, 0));
    }

    synchronized String what() {
        return "ids reused: the gateway's answers " + answers + "; each of " + refused.size() + " reuses on the"
                + " commands topic REJECTED invalid with a detail; " + once.size() + " purchases decided once, "
                + never.size() + " refused ones never; both goods' invariants (no (goods, requestId) decided"
                + " twice, every SUCCESS its buyer's order row, no unit held without one)"
                + (details.isEmpty() ? "" : "; the stream's details: " + details);
    }

    synchronized String violation() throws Exception {
        if (!wrong.isEmpty()) return String.join("; ", wrong);
        Map<Long, List<JsonNode>> outcomes = new HashMap<>();
        for (long g : List.of(t.goods, IdReuse.SECOND_GOODS)) outcomes.put(g, SaleRecords.outcomes(t, g));
        details.clear();
        for (Purchase p : refused) {
            JsonNode found = outcomes.get(p.goods()).stream()
                    .filter(o -> o.path("requestId").asText().equals(p.requestId())
                            && o.path("userId").asLong() == p.user()
                            && o.path("quantity").asInt() == p.quantity()
                            && SaleRecords.refusesReuse(o))
                    .findFirst()
                    .orElse(null);
            if (found == null) return "no REJECTED invalid with a detail for the reuse " + p + ": " + of(outcomes, p);
            details.add(found.path("detail").asText());
        }
        for (Purchase p : once) {
            List<String> d = SaleRecords.decisions(outcomes.get(p.goods())).getOrDefault(p.requestId(), List.of());
            if (d.size() != 1) return p + " was decided " + d + ": " + of(outcomes, p);
        }
        for (Purchase p : never)
            if (!of(outcomes, p).isEmpty()) return "the refused " + p + " reached the stream: " + of(outcomes, p);
        long goodsDeciding = outcomes.values().stream()
                .filter(os -> SaleRecords.decisions(os).containsKey(burstId))
                .count();
        if (goodsDeciding > 1 && !storeFailed) return "purchases under " + burstId + " decided on both goods";
        // both goods: no (goods, requestId) decided twice, every SUCCESS exactly its buyer's order row, a row live
        // exactly while the ledger holds its units, and the rest of the invariants
        try (Connection c = t.db()) {
            for (long goods : outcomes.keySet()) {
                SaleAudit audit = SaleAudit.settled(() -> SaleFacts.ofPipeline(t.settings, c, goods));
                if (!audit.ok()) return "goods " + goods + ": " + String.join("; ", audit.violations);
            }
        }
        return null;
    }

    private static List<String> of(Map<Long, List<JsonNode>> outcomes, Purchase p) {
        return outcomes.get(p.goods()).stream()
                .filter(o -> o.path("requestId").asText().equals(p.requestId()))
                .map(JsonNode::toString)
                .toList();
    }
}
