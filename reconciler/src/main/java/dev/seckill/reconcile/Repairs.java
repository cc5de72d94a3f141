package dev.seckill.reconcile;

import dev.seckill.reconcile.ReconcileQueries.Holding;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The repairs of a goods and their audit trail (reconcile_audit), which records what was really done: a restore is
 * audited before it is sent ({@link RedisRestores}); a DB repair is audited in the transaction that made it, and only
 * when it changed something; what is only flagged is flagged once. In dry-run mode nothing is done or audited. Each
 * method answers what to report (null: nothing done).
 */
final class Repairs {
    private static final Logger LOG = LoggerFactory.getLogger(Repairs.class);

    /** A repair in the DB: true when it changed something. */
    interface Action {
        boolean run() throws Exception;
    }

    private final RedisRestores restores;
    private final MeterRegistry metrics;
    private final boolean dryRun;

    Repairs(RedisRestores restores, MeterRegistry metrics, boolean dryRun) {
        this.restores = restores;
        this.metrics = metrics;
        this.dryRun = dryRun;
    }

    /** Rebuilds the goods' Redis state through a {@code restore} command, audited before it is sent. */
    String restore(Connection c, long goods, String kind, String why) throws Exception {
        if (dryRun) return kind + " (dry run: restore_sent not done)";
        restores.send(c, goods, kind, why);
        return done(goods, kind, "restore_sent", why);
    }

    /** Sends the restores audited by a process that died before sending them. */
    void sendUnsentRestores(Connection c) throws Exception {
        if (!dryRun && restores.sendUnsent(c) > 0) LOG.warn("sent restores audited but not sent before");
    }

    /** A DB repair and its audit row, in one transaction; nothing audited (null) when the repair changed nothing. */
    String write(Connection c, long goods, String kind, String action, String detail, Action repair) throws Exception {
        if (dryRun) return kind + " (dry run: " + action + " not done)";
        c.setAutoCommit(false);
        try {
            if (!repair.run()) {
                c.rollback();
                return null;
            }
            ReconcileQueries.audit(c, goods, kind, action, detail);
            c.commit();
        } catch (Exception e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
        return done(goods, kind, action, detail);
    }

    /** Something to be looked at, not repaired: audited once per detail (null when it was before). */
    String flagOnce(Connection c, long goods, String kind, String action, String detail) throws Exception {
        if (ReconcileQueries.audited(c, goods, kind, detail)) return null;
        return write(c, goods, kind, action, detail, () -> true);
    }

    /**
     * The goods' order rows against its live buyers by the ledger: a missing order is written (placed in its sale:
     * {@code partition}, {@code saleOffset}), or flagged once when the buyer's live-order key is taken by another order;
     * a live order without a SUCCESS behind it is flagged once, never deleted.
     */
    List<String> orders(
            Connection c,
            long goods,
            Map<Long, Holding> holdings,
            Map<String, Long> liveOrders,
            int partition,
            Long saleOffset)
            throws Exception {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, Holding> h : holdings.entrySet()) {
            long user = h.getKey();
            Holding holding = h.getValue();
            String requestId = holding.requestId();
            if (liveOrders.containsKey(requestId) || ReconcileQueries.orderExists(c, goods, requestId, saleOffset))
                continue;
            String detail = "SUCCESS " + requestId + " of user " + user + " has no order row";
            String done = write(
                    c,
                    goods,
                    "missing_order",
                    "order_written",
                    detail,
                    () -> ReconcileQueries.writeOrder(
                            c, goods, user, requestId, holding.quantity(), partition, saleOffset));
            if (done == null && !ReconcileQueries.orderExists(c, goods, requestId, saleOffset))
                done = flagOnce(
                        c,
                        goods,
                        "missing_order",
                        "not_written",
                        detail + "; not written: the buyer holds another live order of the goods");
            if (done != null) out.add(done);
        }
        Set<String> ledgerRequests = new HashSet<>();
        holdings.values().forEach(h -> ledgerRequests.add(h.requestId()));
        for (Map.Entry<String, Long> order : liveOrders.entrySet()) {
            if (ledgerRequests.contains(order.getKey())) continue;
            String detail =
                    "order " + order.getKey() + " of user " + order.getValue() + " has no SUCCESS in the ledger";
            String flagged = flagOnce(c, goods, "stray_order", "flagged", detail);
            if (flagged != null) out.add(flagged);
        }
        return out;
    }

    private String done(long goods, String kind, String action, String detail) {
        metrics.counter("seckill_reconcile_repairs", "kind", kind).increment();
        LOG.warn("goods {}: {} -> {} ({})", goods, kind, action, detail);
        return kind + ": " + action;
    }
}
