package dev.seckill.infra.harness;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.reconcile.LedgerReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the invariants of docs/invariants.md for one goods after the pipeline has drained, from every source: the outcome
 * topics, the ledger topic, Redis and the DB. Each violation is a line of text; none means the sale was correct.
 */
public final class SaleAudit {
    public final long goodsId;
    public final Map<OutcomeKind, Long> outcomesByKind = new EnumMap<>(OutcomeKind.class);
    public long opened, deducted, released, ledgerEntries, ordersInDb, liveOrdersInDb, duplicateBuyers, oversold;
    public Long redisStock, dbStock;
    public final List<String> violations = new ArrayList<>();

    private SaleAudit(long goodsId) {
        this.goodsId = goodsId;
    }

    public static SaleAudit of(Pipeline p, long goodsId, Set<String> acceptedIds, List<Outcome> allOutcomes)
            throws SQLException {
        SaleAudit a = new SaleAudit(goodsId);
        for (OutcomeKind k : OutcomeKind.values()) a.outcomesByKind.put(k, 0L);
        List<Outcome> outcomes =
                allOutcomes.stream().filter(o -> o.goodsId() == goodsId).toList();

        // Invariant 5: every acknowledged purchase has exactly one outcome (and no requestId has two).
        Map<String, Integer> perRequest = new HashMap<>();
        for (Outcome o : outcomes) {
            // a requestId reused for another purchase is answered REJECTED invalid with a detail: an answer to that
            // command, not a second decision of the purchase (docs/contracts.md, "Ids")
            if (o.detail() == null) perRequest.merge(o.requestId(), 1, Integer::sum);
            a.outcomesByKind.merge(o.outcome(), 1L, Long::sum);
        }
        long twice = perRequest.values().stream().filter(n -> n > 1).count();
        if (twice > 0) a.violations.add("invariant 5: " + twice + " requestIds have more than one outcome");
        long undecided =
                acceptedIds.stream().filter(id -> !perRequest.containsKey(id)).count();
        if (undecided > 0) a.violations.add("invariant 5: " + undecided + " acknowledged requests have no outcome");

        // Invariants 1 and 2 from the ledger, in the order it was decided.
        List<LedgerEntry> ledger = new ArrayList<>();
        LedgerReader.readAll(p.namespace().settings(), p.topics().ledger(), r -> {
            LedgerEntry e = Json.read(r.value(), LedgerEntry.class);
            if (e.goodsId() == goodsId) ledger.add(e);
        });
        a.ledgerEntries = ledger.size();
        Set<Long> live = new HashSet<>();
        for (LedgerEntry e : ledger) {
            if (e.type() == LedgerType.OPENED) a.opened += e.quantity();
            if (e.type() == LedgerType.DEDUCTED) {
                a.deducted += e.quantity();
                if (!live.add(e.userId())) a.duplicateBuyers++;
            }
            if (e.type() == LedgerType.RELEASED) {
                a.released += e.quantity();
                live.remove(e.userId());
            }
        }
        String stock = p.redis().get(p.keys().stock(goodsId));
        a.redisStock = stock == null ? null : Long.parseLong(stock);
        a.oversold = Math.max(0, a.deducted - a.released - a.opened);
        if (a.oversold > 0) a.violations.add("invariant 1: oversold by " + a.oversold + " units");
        if (a.redisStock != null && a.redisStock < 0) a.violations.add("invariant 1: Redis stock is " + a.redisStock);
        if (a.duplicateBuyers > 0)
            a.violations.add("invariant 2: " + a.duplicateBuyers + " buyers got a second live purchase");
        long successes = a.outcomesByKind.get(OutcomeKind.SUCCESS);
        long successUnits = outcomes.stream()
                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                .mapToLong(Outcome::quantity)
                .sum();
        if (successUnits != a.deducted) {
            a.violations.add("ledger: " + a.deducted + " units deducted but SUCCESS outcomes hold " + successUnits);
        }

        // Invariant 3: every SUCCESS has exactly one order row, and no order row lacks a SUCCESS.
        Set<String> successIds = new HashSet<>();
        outcomes.stream().filter(o -> o.outcome() == OutcomeKind.SUCCESS).forEach(o -> successIds.add(o.requestId()));
        try (Connection c = p.db().getConnection()) {
            Set<String> orderIds = new HashSet<>();
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT request_id, live_user_id FROM purchase_order WHERE goods_id = ?")) {
                ps.setLong(1, goodsId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        a.ordersInDb++;
                        if (!orderIds.add(rs.getString(1)))
                            a.violations.add("invariant 3: two order rows for " + rs.getString(1));
                        rs.getLong(2);
                        if (!rs.wasNull()) a.liveOrdersInDb++;
                    }
                }
            }
            long missing =
                    successIds.stream().filter(id -> !orderIds.contains(id)).count();
            long stray =
                    orderIds.stream().filter(id -> !successIds.contains(id)).count();
            if (missing > 0) a.violations.add("invariant 3: " + missing + " SUCCESS outcomes have no order row");
            if (stray > 0) a.violations.add("invariant 3: " + stray + " order rows have no SUCCESS outcome");
            try (PreparedStatement ps = c.prepareStatement("SELECT stock FROM sale WHERE goods_id = ?")) {
                ps.setLong(1, goodsId);
                try (ResultSet rs = ps.executeQuery()) {
                    a.dbStock = rs.next() ? rs.getLong(1) : null;
                }
            }
        }
        // Invariant 4: after draining, Redis = DB = ledger fold.
        long fold = a.opened - a.deducted + a.released;
        if (a.redisStock == null || a.redisStock != fold || a.dbStock == null || a.dbStock != fold) {
            a.violations.add("invariant 4: ledger fold " + fold + ", Redis " + a.redisStock + ", DB " + a.dbStock);
        }
        if (successes != successIds.size()) a.violations.add("invariant 5: SUCCESS outcomes repeat a requestId");
        return a;
    }

    public boolean ok() {
        return violations.isEmpty();
    }
}
