package dev.seckill.reconcile;

import java.util.List;

/** The reconcile report as text: one row per goods, each source side by side, the verdict and what was done. */
final class ReconcileTable {
    private ReconcileTable() {}

    /** A fixed-width table: one row per goods, each source side by side, the verdict and what was done. */
    static String render(List<Reconciler.Row> rows) {
        StringBuilder b = new StringBuilder(String.format(
                "%-10s %8s %8s %8s | %8s %7s | %8s %7s | %8s %7s %8s | %-14s %s%n",
                "goods",
                "opened",
                "deducted",
                "released",
                "ledger",
                "buyers",
                "redis",
                "buyers",
                "db",
                "orders",
                "dbLedger",
                "verdict",
                "repairs"));
        for (Reconciler.Row r : rows) {
            GoodsDrift d = r.drift();
            b.append(String.format(
                    "%-10d %8d %8d %8d | %8d %7d | %8s %7s | %8s %7s %8s | %-14s %s%n",
                    d.goodsId(),
                    d.opened(),
                    d.deducted(),
                    d.released(),
                    d.ledgerStock(),
                    d.ledgerLiveBuyers(),
                    str(d.redisStock()),
                    str(d.redisBuyers()),
                    str(d.dbStock()),
                    str(d.dbLiveOrders()),
                    str(d.dbLedgerStock()),
                    r.verdict(),
                    r.repairs().isEmpty() ? "-" : String.join("; ", r.repairs())));
        }
        return b.toString();
    }

    private static String str(Long v) {
        return v == null ? "-" : v.toString();
    }
}
