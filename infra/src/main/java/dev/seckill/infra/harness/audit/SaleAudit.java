package dev.seckill.infra.harness.audit;

import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.audit.SaleChecks.Check;
import dev.seckill.infra.harness.audit.SaleFacts.Source;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The audit of one goods' sale after it drained: the facts read once ({@link SaleFacts}), every check of
 * {@link SaleChecks} whose sources were read, what each broken one says (naming its invariant of docs/invariants.md),
 * and the figures a report prints beside them. The demo, the drills, the system tests, chaos and the strategies
 * benchmark all audit a sale through this class; none means the sale was correct.
 */
public final class SaleAudit {
    /** A broken check: its invariant, its name, and the reason the facts gave. */
    public record Violation(Invariant invariant, String check, String reason) {
        @Override
        public String toString() {
            return invariant.label() + ": " + reason;
        }
    }

    /** Reads a sale's facts (again). */
    @FunctionalInterface
    public interface Reading {
        SaleFacts read() throws Exception;
    }

    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(30);

    public final SaleFacts facts;
    public final long goodsId;
    public final Map<OutcomeKind, Long> outcomesByKind = new EnumMap<>(OutcomeKind.class);
    public final long opened, deducted, released, ledgerEntries, ordersInDb, liveOrdersInDb, duplicateBuyers, oversold;
    public final Long redisStock, dbStock;
    /** Every violation as a line, "invariant N (title): reason"; empty when the sale was correct. */
    public final List<String> violations;

    private final List<Violation> broken = new ArrayList<>();
    private final Set<Invariant> checked = EnumSet.noneOf(Invariant.class);

    private SaleAudit(SaleFacts f) {
        this.facts = f;
        this.goodsId = f.goodsId();
        for (OutcomeKind k : OutcomeKind.values()) outcomesByKind.put(k, 0L);
        f.outcomes().forEach(o -> outcomesByKind.merge(o.outcome(), 1L, Long::sum));
        this.opened = f.opened();
        this.deducted = SaleCounts.units(f, LedgerType.DEDUCTED);
        this.released = SaleCounts.units(f, LedgerType.RELEASED);
        this.ledgerEntries = f.ledger().size();
        this.ordersInDb = f.orders().size();
        this.liveOrdersInDb = f.liveOrders().size();
        this.duplicateBuyers = f.read().contains(Source.TOPICS)
                ? SaleCounts.secondLivePurchases(f.ledger())
                : f.liveOrders().size() - SaleCounts.liveHolders(f).size();
        this.oversold = f.read().contains(Source.TOPICS)
                ? SaleCounts.oversold(f)
                : Math.max(0, f.liveOrders().size() - f.opened());
        this.redisStock = f.redisStock();
        this.dbStock = f.dbStock();
        for (Check c : SaleChecks.ALL) {
            if (!f.read().containsAll(c.needs())) continue;
            checked.add(c.invariant());
            String reason = c.reason().apply(f);
            if (reason != null) broken.add(new Violation(c.invariant(), c.name(), reason));
        }
        this.violations = broken.stream().map(Violation::toString).toList();
    }

    /** Every check the facts' sources allow, run once. */
    public static SaleAudit of(SaleFacts facts) {
        return new SaleAudit(facts);
    }

    /**
     * The audit of a sale on an in-process pipeline: the outcomes as its {@code OutcomeLog} read them, the ledger,
     * Redis and the DB, and every acknowledged request decided.
     */
    public static SaleAudit of(Pipeline p, long goodsId, Set<String> acknowledged, List<Outcome> outcomes)
            throws Exception {
        try (Connection c = p.db().getConnection()) {
            return of(SaleFacts.ofPipeline(p.namespace().settings(), p.redis(), c, goodsId, outcomes)
                    .acknowledged(acknowledged));
        }
    }

    /**
     * The facts read again, every half second for at most 30 s, until every check holds (the order-writer's last batch
     * may still be on its way): the first audit that holds, else the last one.
     */
    public static SaleAudit settled(Reading reading) throws Exception {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        SaleAudit audit = of(reading.read());
        while (!audit.ok() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(500); // polling stores other processes write
            audit = of(reading.read());
        }
        return audit;
    }

    public boolean ok() {
        return broken.isEmpty();
    }

    /** The broken checks, in the order of {@link SaleChecks#ALL}. */
    public List<Violation> broken() {
        return Collections.unmodifiableList(broken);
    }

    /** The invariants at least one check looked at. */
    public Set<Invariant> checked() {
        return Collections.unmodifiableSet(checked);
    }

    /** What was checked, from where: "docs/invariants.md invariants 1, 2, 3, 4, 5 read from the topics, Redis, ...". */
    public String what() {
        return "docs/invariants.md invariants "
                + checked.stream().map(i -> Integer.toString(i.number)).collect(Collectors.joining(", "))
                + " read from " + facts.read().stream().map(SaleAudit::words).collect(Collectors.joining(", "));
    }

    /** One line per invariant checked: "invariant 1 (no oversell): held (3 checks)", or VIOLATED and the reasons. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (Invariant i : checked) {
            List<String> reasons = broken.stream()
                    .filter(v -> v.invariant() == i)
                    .map(Violation::reason)
                    .toList();
            long checks = SaleChecks.ALL.stream()
                    .filter(c -> c.invariant() == i && facts.read().containsAll(c.needs()))
                    .count();
            lines.add(i.label() + ": "
                    + (reasons.isEmpty()
                            ? "held (" + checks + (checks == 1 ? " check)" : " checks)")
                            : "VIOLATED: " + String.join("; ", reasons)));
        }
        return lines;
    }

    private static String words(Source s) {
        return switch (s) {
            case TOPICS -> "the topics";
            case REDIS -> "Redis";
            case DB -> "the DB";
            case ACKNOWLEDGED -> "the acknowledged requests";
            case BUYERS -> "the buyers' answers";
        };
    }
}
