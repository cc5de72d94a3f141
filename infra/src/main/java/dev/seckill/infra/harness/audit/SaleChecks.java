package dev.seckill.infra.harness.audit;

import static dev.seckill.infra.harness.audit.Invariant.EVERY_SUCCESS_ONE_ORDER_ROW;
import static dev.seckill.infra.harness.audit.Invariant.NO_OVERSELL;
import static dev.seckill.infra.harness.audit.Invariant.ONE_LIVE_PURCHASE_PER_BUYER;
import static dev.seckill.infra.harness.audit.Invariant.ONE_OUTCOME_PER_PURCHASE;
import static dev.seckill.infra.harness.audit.Invariant.THE_THREE_COUNTS_AGREE;
import static dev.seckill.infra.harness.audit.SaleFacts.Source.ACKNOWLEDGED;
import static dev.seckill.infra.harness.audit.SaleFacts.Source.BUYERS;
import static dev.seckill.infra.harness.audit.SaleFacts.Source.DB;
import static dev.seckill.infra.harness.audit.SaleFacts.Source.REDIS;
import static dev.seckill.infra.harness.audit.SaleFacts.Source.TOPICS;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.audit.SaleFacts.OrderRow;
import dev.seckill.infra.harness.audit.SaleFacts.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Every check of the audit, each a named rule of one invariant of docs/invariants.md, the sources it reads and the
 * reason it gives when the facts break it (null when they hold). What they count is {@link SaleCounts}'s, shared with
 * the figures, so a figure and its check cannot disagree.
 */
public final class SaleChecks {
    /** One rule: its invariant, its name, the sources it needs, the reason it is broken (null: it holds). */
    public record Check(Invariant invariant, String name, Set<Source> needs, Function<SaleFacts, String> reason) {}

    public static final List<Check> ALL = List.of(
            new Check(NO_OVERSELL, "the ledger deducts no more than it opened", Set.of(TOPICS), f -> {
                long over = SaleCounts.oversold(f);
                return over > 0
                        ? "oversold by " + over + " units: deducted " + SaleCounts.units(f, LedgerType.DEDUCTED)
                                + " - released " + SaleCounts.units(f, LedgerType.RELEASED) + " > opened " + f.opened()
                        : null;
            }),
            new Check(
                    NO_OVERSELL,
                    "Redis stock is never below 0",
                    Set.of(REDIS),
                    f -> f.redisStock() != null && f.redisStock() < 0 ? "Redis stock is " + f.redisStock() : null),
            new Check(NO_OVERSELL, "the live orders hold no more units than opened", Set.of(DB), f -> {
                long held =
                        f.liveOrders().stream().mapToLong(OrderRow::quantity).sum();
                return held > f.opened() ? "live orders hold " + held + " units, " + f.opened() + " opened" : null;
            }),
            counted(
                    ONE_LIVE_PURCHASE_PER_BUYER,
                    "the ledger never deducts for a live buyer",
                    Set.of(TOPICS),
                    f -> SaleCounts.secondLivePurchases(f.ledger()),
                    "buyers got a second live purchase"),
            counted(
                    ONE_LIVE_PURCHASE_PER_BUYER,
                    "one live order per buyer",
                    Set.of(DB),
                    f -> f.liveOrders().size() - SaleCounts.liveHolders(f).size(),
                    "live orders beyond one per buyer"),
            counted(
                    ONE_LIVE_PURCHASE_PER_BUYER,
                    "no buyer told SUCCESS twice",
                    Set.of(BUYERS),
                    SaleCounts::toldSuccessTwice,
                    "SUCCESS answers beyond one per buyer"),
            new Check(
                    EVERY_SUCCESS_ONE_ORDER_ROW,
                    "every SUCCESS outcome has one order row, its buyer's",
                    Set.of(TOPICS, DB),
                    SaleChecks::successesWithoutTheirRow),
            counted(
                    EVERY_SUCCESS_ONE_ORDER_ROW,
                    "no order row without a SUCCESS outcome",
                    Set.of(TOPICS, DB),
                    SaleChecks::strayRows,
                    "order rows have no SUCCESS outcome"),
            new Check(
                    EVERY_SUCCESS_ONE_ORDER_ROW,
                    "an order is live exactly while the ledger holds its units",
                    Set.of(TOPICS, DB),
                    SaleChecks::liveOrdersAreTheHeldUnits),
            counted(
                    EVERY_SUCCESS_ONE_ORDER_ROW,
                    "every buyer told SUCCESS holds an order",
                    Set.of(BUYERS, DB),
                    SaleCounts::lost,
                    "buyers told SUCCESS hold no order (confirmed sales lost)"),
            counted(
                    EVERY_SUCCESS_ONE_ORDER_ROW,
                    "every buyer told DUPLICATE holds an order",
                    Set.of(BUYERS, DB),
                    SaleCounts::falseDuplicates,
                    "buyers told DUPLICATE hold no order (the purchase they hold was lost)"),
            new Check(
                    THE_THREE_COUNTS_AGREE,
                    "Redis stock = DB stock = the ledger fold",
                    Set.of(TOPICS, REDIS, DB),
                    f -> f.redisStock() == null
                                    || f.redisStock() != f.fold()
                                    || f.dbStock() == null
                                    || f.dbStock() != f.fold()
                            ? "ledger fold " + f.fold() + ", Redis " + f.redisStock() + ", DB " + f.dbStock()
                            : null),
            new Check(
                    THE_THREE_COUNTS_AGREE,
                    "the ledger deducts the units the SUCCESS outcomes hold",
                    Set.of(TOPICS),
                    f -> {
                        long success = f.outcomes().stream()
                                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                                .mapToLong(Outcome::quantity)
                                .sum();
                        long deducted = SaleCounts.units(f, LedgerType.DEDUCTED);
                        return success != deducted
                                ? deducted + " units deducted but SUCCESS outcomes hold " + success
                                : null;
                    }),
            new Check(ONE_OUTCOME_PER_PURCHASE, "no requestId decided twice", Set.of(TOPICS), f -> {
                List<String> twice = SaleCounts.decisions(f).entrySet().stream()
                        .filter(e -> e.getValue() > 1)
                        .map(Map.Entry::getKey)
                        .sorted()
                        .toList();
                return twice.isEmpty()
                        ? null
                        : twice.size() + " requestIds have more than one outcome, first " + twice.get(0);
            }),
            counted(
                    ONE_OUTCOME_PER_PURCHASE,
                    "every acknowledged request decided",
                    Set.of(TOPICS, ACKNOWLEDGED),
                    f -> {
                        Map<String, Integer> decided = SaleCounts.decisions(f);
                        return f.acknowledged().stream()
                                .filter(id -> !decided.containsKey(id))
                                .count();
                    },
                    "acknowledged requests have no outcome"));

    /** A check broken by a count above 0: its reason is the count and {@code what} it counts. */
    private static Check counted(
            Invariant invariant, String name, Set<Source> needs, ToLongFunction<SaleFacts> count, String what) {
        return new Check(invariant, name, needs, f -> {
            long n = count.applyAsLong(f);
            return n > 0 ? n + " " + what : null;
        });
    }

    private static long strayRows(SaleFacts f) {
        Set<String> successes = successIds(f);
        return f.orders().stream()
                .filter(r -> !successes.contains(r.requestId()))
                .count();
    }

    private SaleChecks() {}

    private static Set<String> successIds(SaleFacts f) {
        Set<String> ids = new HashSet<>();
        f.outcomes().stream().filter(o -> o.outcome() == OutcomeKind.SUCCESS).forEach(o -> ids.add(o.requestId()));
        return ids;
    }

    private static String successesWithoutTheirRow(SaleFacts f) {
        Map<String, List<OrderRow>> rows = new HashMap<>();
        f.orders()
                .forEach(r -> rows.computeIfAbsent(r.requestId(), k -> new ArrayList<>())
                        .add(r));
        long missing = 0;
        String first = null;
        for (Outcome o : f.outcomes()) {
            if (o.outcome() != OutcomeKind.SUCCESS) continue;
            List<OrderRow> r = rows.getOrDefault(o.requestId(), List.of());
            if (r.isEmpty()) missing++;
            else if (first == null && (r.size() > 1 || r.get(0).userId() != o.userId()))
                first = "SUCCESS " + o.requestId() + " of buyer " + o.userId() + " has rows " + r;
        }
        if (missing > 0) return missing + " SUCCESS outcomes have no order row";
        return first;
    }

    private static String liveOrdersAreTheHeldUnits(SaleFacts f) {
        Set<String> held = new HashSet<>();
        for (LedgerEntry e : f.ledger()) {
            if (e.type() == LedgerType.DEDUCTED) held.add(e.requestId());
            if (e.type() == LedgerType.RELEASED) held.remove(e.requestId());
        }
        Set<String> live = new HashSet<>();
        f.liveOrders().forEach(r -> live.add(r.requestId()));
        long heldWithout = held.stream().filter(id -> !live.contains(id)).count();
        long liveWithout = live.stream().filter(id -> !held.contains(id)).count();
        return heldWithout + liveWithout == 0
                ? null
                : held.size() + " purchases hold units in the ledger, " + live.size()
                        + " live orders: " + heldWithout + " held without a live order, " + liveWithout
                        + " live orders whose units were released";
    }
}
