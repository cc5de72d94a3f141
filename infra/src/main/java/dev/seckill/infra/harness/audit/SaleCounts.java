package dev.seckill.infra.harness.audit;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The counts over a sale's facts that the checks ({@link SaleChecks}) and the figures ({@link SaleAudit}, {@link StrategyAudit}) share. */
public final class SaleCounts {
    private SaleCounts() {}

    /** Units deducted beyond those opened and released (0 when none). */
    public static long oversold(SaleFacts f) {
        return Math.max(0, units(f, LedgerType.DEDUCTED) - units(f, LedgerType.RELEASED) - f.opened());
    }

    /** The ledger's units of one type. */
    public static long units(SaleFacts f, LedgerType type) {
        return f.ledger().stream()
                .filter(e -> e.type() == type)
                .mapToLong(LedgerEntry::quantity)
                .sum();
    }

    /** DEDUCTED entries, in the ledger's order, for a buyer who still held a purchase of the goods. */
    public static long secondLivePurchases(List<LedgerEntry> ledger) {
        Set<Long> live = new HashSet<>();
        long second = 0;
        for (LedgerEntry e : ledger) {
            if (e.type() == LedgerType.DEDUCTED && !live.add(e.userId())) second++;
            if (e.type() == LedgerType.RELEASED) live.remove(e.userId());
        }
        return second;
    }

    /** The buyers holding a live order. */
    public static Set<Long> liveHolders(SaleFacts f) {
        Set<Long> holders = new HashSet<>();
        f.liveOrders().forEach(r -> holders.add(r.userId()));
        return holders;
    }

    /** The buyers told SUCCESS. */
    public static Set<Long> toldSuccess(SaleFacts f) {
        return toldSet(f, OutcomeKind.SUCCESS);
    }

    /** SUCCESS answers beyond the first one of each buyer. */
    public static long toldSuccessTwice(SaleFacts f) {
        long told = f.told().stream()
                .filter(t -> OutcomeKind.SUCCESS.name().equals(t.answer()))
                .count();
        return told - toldSuccess(f).size();
    }

    /** Buyers told SUCCESS who hold no live order. */
    public static long lost(SaleFacts f) {
        Set<Long> holders = liveHolders(f);
        return toldSuccess(f).stream().filter(u -> !holders.contains(u)).count();
    }

    /** Buyers told DUPLICATE ("you hold one") who hold no live order. */
    public static long falseDuplicates(SaleFacts f) {
        Set<Long> holders = liveHolders(f);
        return toldSet(f, OutcomeKind.DUPLICATE).stream()
                .filter(u -> !holders.contains(u))
                .count();
    }

    private static Set<Long> toldSet(SaleFacts f, OutcomeKind kind) {
        Set<Long> users = new HashSet<>();
        f.told().stream().filter(t -> kind.name().equals(t.answer())).forEach(t -> users.add(t.userId()));
        return users;
    }

    /**
     * requestId → how many outcomes decided the purchase under it. A requestId reused for another purchase is answered
     * REJECTED invalid with a detail: an answer to that command, not a second decision (docs/contracts.md, "Ids").
     */
    public static Map<String, Integer> decisions(SaleFacts f) {
        Map<String, Integer> perRequest = new HashMap<>();
        for (Outcome o : f.outcomes()) if (!refusesReuse(o)) perRequest.merge(o.requestId(), 1, Integer::sum);
        return perRequest;
    }

    /** An outcome that refuses a reused requestId (REJECTED invalid with a detail): another purchase's answer. */
    public static boolean refusesReuse(Outcome o) {
        return o.outcome() == OutcomeKind.REJECTED
                && "invalid".equals(o.reason())
                && o.detail() != null
                && !o.detail().isBlank();
    }
}
