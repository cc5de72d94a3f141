package dev.seckill.infra.ops;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.AnswerTimes;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.Latencies;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.infra.harness.audit.SaleAudit;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code ./seckill demo} found: the sale's load, its audit and how long the pipeline took to decide it — printed
 * as the flash-sale report, and with {@code --json} the same figures by name in one document on stdout.
 *
 * @param load the sale's HTTP load (accept latency from each request's send)
 * @param audit every invariant, checked against the stores and the ledger
 * @param decisionMs each of the goods' purchases, acceptedAt → decidedAt in ms, sorted
 * @param drained whether every accepted purchase was decided in time
 * @param drainSeconds how long after the load the last one was
 */
record DemoReport(HttpLoad.Result load, SaleAudit audit, long[] decisionMs, boolean drained, double drainSeconds) {

    /** The report of the sale {@code audit} checked, its purchases' decision times read from {@code outcomes}. */
    static DemoReport of(
            HttpLoad.Result load, SaleAudit audit, List<Outcome> outcomes, boolean drained, double drainSeconds) {
        long[] decisionMs = outcomes.stream()
                .filter(o -> o.goodsId() == audit.goodsId && o.acceptedAt() != null && o.decidedAt() != null)
                .mapToLong(o -> Duration.between(o.acceptedAt(), o.decidedAt()).toMillis())
                .sorted()
                .toArray();
        return new DemoReport(load, audit, decisionMs, drained, drainSeconds);
    }

    /** Whether every invariant held and every accepted purchase was decided. */
    boolean ok() {
        return audit.ok() && drained;
    }

    /** The report as text, on {@code out}. */
    void print(PrintStream out) {
        SaleAudit a = audit;
        out.println();
        out.println("== flash-sale report ==================================================");
        out.printf(
                "requests sent          %,d in %.1f s (%,.0f req/s), transport errors %d%n",
                load.requests(), load.elapsedNanos() / 1e9, load.requestsPerSecond(), load.errors());
        out.printf("HTTP status            %s%n", load.byStatus());
        out.printf(
                "accepted (202)         %,d (%,.0f accepted/s)%n",
                load.acceptedIds().size(), load.acceptedPerSecond());
        out.printf(
                "accept latency         p50 %.1f ms   p99 %.1f ms   p99.9 %.1f ms%n",
                load.percentileMillis(50), load.percentileMillis(99), load.percentileMillis(99.9));
        out.printf(
                "decision latency       p50 %d ms   p99 %d ms   (acceptedAt -> decidedAt)%n",
                Latencies.percentile(decisionMs, 50, 0), Latencies.percentile(decisionMs, 99, 0));
        out.printf(
                "outcomes               SUCCESS %,d   SOLD_OUT %,d   DUPLICATE %,d   REJECTED %,d%n",
                a.outcomesByKind.get(OutcomeKind.SUCCESS),
                a.outcomesByKind.get(OutcomeKind.SOLD_OUT),
                a.outcomesByKind.get(OutcomeKind.DUPLICATE),
                a.outcomesByKind.get(OutcomeKind.REJECTED));
        out.printf("drained                %s in %.1f s after the load%n", drained ? "yes" : "NO", drainSeconds);
        out.printf("orders in MySQL        %,d (live %,d)%n", a.ordersInDb, a.liveOrdersInDb);
        out.printf(
                "ledger entries         %,d (opened %,d, deducted %,d, released %,d)%n",
                a.ledgerEntries, a.opened, a.deducted, a.released);
        out.printf(
                "stock left             Redis %s   DB %s   ledger %d%n",
                a.redisStock, a.dbStock, a.opened - a.deducted + a.released);
        out.printf("oversold units         %d%n", a.oversold);
        out.printf("duplicate buyers       %d%n", a.duplicateBuyers);
        if (a.ok() && drained) {
            out.println("invariants             OK: no oversell, one live purchase per buyer, one order per SUCCESS,");
            out.println("                       Redis = DB = ledger, every accepted request decided exactly once");
        } else {
            out.println("invariants             BROKEN (" + a.what() + "):");
            a.lines().forEach(line -> out.println("  - " + line));
        }
    }

    /** The report's figures by name, into {@code --json}'s document; {@code answers} null when none were measured. */
    void put(ReportOutput o, AnswerTimes answers) {
        SaleAudit a = audit;
        Map<String, Object> sent = new LinkedHashMap<>();
        sent.put("requests", load.requests());
        sent.put("seconds", load.elapsedNanos() / 1e9);
        sent.put("requestsPerSecond", load.requestsPerSecond());
        sent.put("transportErrors", load.errors());
        sent.put("byStatus", load.byStatus());
        sent.put("accepted", load.acceptedIds().size());
        sent.put("acceptedPerSecond", load.acceptedPerSecond());
        sent.put("acceptP50Ms", load.percentileMillis(50));
        sent.put("acceptP99Ms", load.percentileMillis(99));
        sent.put("acceptP999Ms", load.percentileMillis(99.9));
        o.put("load", sent);
        o.put("decisionP50Ms", Latencies.percentile(decisionMs, 50, 0));
        o.put("decisionP99Ms", Latencies.percentile(decisionMs, 99, 0));
        Map<String, Long> outcomes = new LinkedHashMap<>();
        for (OutcomeKind k : OutcomeKind.values()) outcomes.put(k.name(), a.outcomesByKind.getOrDefault(k, 0L));
        o.put("outcomes", outcomes);
        o.put("drained", drained).put("drainSeconds", drainSeconds);
        o.put("orders", new Orders(a.ordersInDb, a.liveOrdersInDb));
        o.put("ledger", new Ledger(a.ledgerEntries, a.opened, a.deducted, a.released));
        o.put("stockLeft", new StockLeft(a.redisStock, a.dbStock, a.opened - a.deducted + a.released));
        o.put("oversold", a.oversold).put("duplicateBuyers", a.duplicateBuyers);
        o.put("invariantsHeld", ok()).put("broken", ok() ? List.of() : a.lines());
        o.put("timeToAnswer", answers);
    }

    /** The sale's order rows: all, and those not released. */
    private record Orders(long all, long live) {}

    /** The goods' ledger: entries, and its units opened, deducted and released. */
    private record Ledger(long entries, long opened, long deducted, long released) {}

    /** Units left by each store's count (null: Redis or the DB could not be read). */
    private record StockLeft(Long redis, Long db, long ledger) {}
}
