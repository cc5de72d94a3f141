package dev.seckill.infra.harness.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.audit.SaleFacts.OrderRow;
import dev.seckill.infra.harness.audit.SaleFacts.Source;
import dev.seckill.infra.harness.audit.SaleFacts.Told;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The audit on crafted facts, no server: a correct sale holds every invariant, and each way of breaking one (oversold,
 * a buyer twice, a lost or stray row, counts apart, a request decided twice or never, a buyer told SUCCESS with no
 * order) is a violation naming that invariant of docs/invariants.md.
 */
@Tag("fast")
class SaleAuditTest {
    private static final long GOODS = 1001;
    private static final Instant T = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    /** Two units opened, buyers 1 and 2 bought one each, buyer 3 was told SOLD_OUT, buyer 1 DUPLICATE on a retry. */
    private final List<Outcome> outcomes = new ArrayList<>(List.of(
            outcome("r1", 1, OutcomeKind.SUCCESS),
            outcome("r2", 2, OutcomeKind.SUCCESS),
            outcome("r3", 3, OutcomeKind.SOLD_OUT),
            outcome("r4", 1, OutcomeKind.DUPLICATE)));

    private final List<LedgerEntry> ledger = new ArrayList<>(List.of(
            entry("open", LedgerType.OPENED, 2, null, null),
            entry("deduct:r1", LedgerType.DEDUCTED, 1, 1L, "r1"),
            entry("deduct:r2", LedgerType.DEDUCTED, 1, 2L, "r2")));
    private final List<OrderRow> orders =
            new ArrayList<>(List.of(new OrderRow("r1", 1, 1, "CREATED"), new OrderRow("r2", 2, 1, "PAID")));
    private final List<Told> told = new ArrayList<>(
            List.of(new Told(1, "SUCCESS"), new Told(2, "SUCCESS"), new Told(3, "SOLD_OUT"), new Told(1, "DUPLICATE")));
    private long redisStock = 0;
    private long dbStock = 0;

    @Test
    void aCorrectSaleHoldsEveryInvariantFromEverySource() {
        SaleAudit audit = audit();

        assertThat(audit.violations).isEmpty();
        assertThat(audit.checked()).containsExactly(Invariant.values());
        assertThat(audit.lines()).first().isEqualTo("invariant 1 (no oversell): held (3 checks)");
        assertThat(audit.what())
                .isEqualTo("docs/invariants.md invariants 1, 2, 3, 4, 5 read from the topics, Redis, the DB, the"
                        + " acknowledged requests, the buyers' answers");
        assertThat(StrategyAudit.of(audit.facts)).isEqualTo(new StrategyAudit(2, 0, 0, 0, 2, 0, 0));
    }

    @Test
    void anOversoldSaleBreaksInvariant1() {
        outcomes.add(outcome("r5", 5, OutcomeKind.SUCCESS));
        ledger.add(entry("deduct:r5", LedgerType.DEDUCTED, 1, 5L, "r5"));
        orders.add(new OrderRow("r5", 5, 1, "CREATED"));
        told.add(new Told(5, "SUCCESS"));
        redisStock = -1;
        dbStock = -1;

        SaleAudit audit = audit();

        assertThat(audit.broken())
                .filteredOn(v -> v.invariant() == Invariant.NO_OVERSELL)
                .extracting(SaleAudit.Violation::toString)
                .containsExactly(
                        "invariant 1 (no oversell): oversold by 1 units: deducted 3 - released 0 > opened 2",
                        "invariant 1 (no oversell): Redis stock is -1",
                        "invariant 1 (no oversell): live orders hold 3 units, 2 opened");
        assertThat(audit.oversold).isEqualTo(1);
        assertThat(audit.lines().get(0)).startsWith("invariant 1 (no oversell): VIOLATED: oversold by 1 units");
    }

    @Test
    void aBuyerWithTwoLivePurchasesBreaksInvariant2() {
        outcomes.set(3, outcome("r4", 1, OutcomeKind.SUCCESS)); // the retry sold again instead of DUPLICATE
        ledger.set(0, entry("open", LedgerType.OPENED, 3, null, null));
        ledger.add(entry("deduct:r4", LedgerType.DEDUCTED, 1, 1L, "r4"));
        orders.add(new OrderRow("r4", 1, 1, "CREATED"));
        told.set(3, new Told(1, "SUCCESS"));

        SaleAudit audit = audit();

        assertThat(audit.broken())
                .extracting(SaleAudit.Violation::invariant)
                .containsOnly(Invariant.ONE_LIVE_PURCHASE_PER_BUYER)
                .hasSize(3);
        assertThat(audit.violations)
                .contains("invariant 2 (one live purchase per (goods, buyer)): 1 buyers got a second live purchase");
        assertThat(audit.duplicateBuyers).isEqualTo(1);
        assertThat(StrategyAudit.of(audit.facts).duplicateBuyers()).isEqualTo(2); // a second order, told twice
    }

    @Test
    void aSuccessWithoutItsRowBreaksInvariant3FromTheTopicsAndFromTheBuyers() {
        orders.remove(1); // r2's row lost; the stock counts still say sold
        told.set(3, new Told(2, "DUPLICATE")); // and buyer 2's retry was told it holds one

        SaleAudit audit = audit();

        assertThat(audit.broken())
                .extracting(SaleAudit.Violation::invariant)
                .containsOnly(Invariant.EVERY_SUCCESS_ONE_ORDER_ROW);
        assertThat(audit.violations)
                .containsExactly(
                        "invariant 3 (every SUCCESS becomes exactly one order row): 1 SUCCESS outcomes have no order"
                                + " row",
                        "invariant 3 (every SUCCESS becomes exactly one order row): 2 purchases hold units in the"
                                + " ledger, 1 live orders: 1 held without a live order, 0 live orders whose units were"
                                + " released",
                        "invariant 3 (every SUCCESS becomes exactly one order row): 1 buyers told SUCCESS hold no order"
                                + " (confirmed sales lost)",
                        "invariant 3 (every SUCCESS becomes exactly one order row): 1 buyers told DUPLICATE hold no"
                                + " order (the purchase they hold was lost)");
        assertThat(StrategyAudit.of(audit.facts).lost()).isEqualTo(1);
    }

    @Test
    void aStrayRowOrALiveRowOfReleasedUnitsBreaksInvariant3() {
        orders.add(new OrderRow("r9", 9, 1, "CREATED"));
        assertThat(audit().violations)
                .anyMatch(v -> v.startsWith("invariant 3") && v.endsWith("1 order rows have no SUCCESS outcome"));

        orders.remove(2);
        ledger.add(entry("release:r1", LedgerType.RELEASED, 1, 1L, "r1")); // released, but its order still CREATED
        redisStock = 1;
        dbStock = 1;
        assertThat(audit().violations)
                .containsExactly("invariant 3 (every SUCCESS becomes exactly one order row): 1 purchases hold units in"
                        + " the ledger, 2 live orders: 0 held without a live order, 1 live orders whose units were"
                        + " released");
    }

    @Test
    void countsApartBreakInvariant4() {
        redisStock = 1; // Redis lost a deduction the fold and the DB have

        assertThat(audit().violations)
                .containsExactly("invariant 4 (the three counts agree): ledger fold 0, Redis 1, DB 0");
    }

    @Test
    void aRequestDecidedTwiceOrNeverBreaksInvariant5_aReuseRefusalIsNotASecondDecision() {
        outcomes.add(outcome("r3", 3, OutcomeKind.SOLD_OUT));
        outcomes.add(outcome("r1", 7, OutcomeKind.REJECTED).withDetail("requestId r1 is another buyer's purchase"));
        SaleFacts facts = facts().acknowledged(Set.of("r1", "r2", "r3", "r4", "r8"));

        assertThat(SaleAudit.of(facts).violations)
                .containsExactly(
                        "invariant 5 (every acknowledged purchase gets exactly one outcome): 1 requestIds have more"
                                + " than one outcome, first r3",
                        "invariant 5 (every acknowledged purchase gets exactly one outcome): 1 acknowledged requests"
                                + " have no outcome");
    }

    @Test
    void aSaleKnownOnlyByItsDatabaseIsCheckedFromIt() {
        orders.add(new OrderRow("r5", 5, 1, "CREATED"));
        SaleFacts facts = new SaleFacts(
                GOODS, EnumSet.of(Source.DB), 2, List.of(), List.of(), null, -1L, orders, Set.of(), List.of());

        SaleAudit audit = SaleAudit.of(facts);

        assertThat(audit.checked()).containsExactly(Invariant.NO_OVERSELL, Invariant.ONE_LIVE_PURCHASE_PER_BUYER);
        assertThat(audit.violations).containsExactly("invariant 1 (no oversell): live orders hold 3 units, 2 opened");
        assertThat(audit.oversold).isEqualTo(1);
    }

    private SaleAudit audit() {
        return SaleAudit.of(facts().acknowledged(Set.of("r1", "r2", "r3", "r4")));
    }

    private SaleFacts facts() {
        return new SaleFacts(
                        GOODS,
                        EnumSet.of(Source.TOPICS, Source.REDIS, Source.DB),
                        ledger.stream()
                                .filter(e -> e.type() == LedgerType.OPENED)
                                .mapToLong(LedgerEntry::quantity)
                                .sum(),
                        outcomes,
                        ledger,
                        redisStock,
                        dbStock,
                        orders,
                        Set.of(),
                        List.of())
                .told(told);
    }

    private static Outcome outcome(String rid, long user, OutcomeKind kind) {
        return Outcome.of(rid, GOODS, user, 1, kind, kind == OutcomeKind.REJECTED ? "invalid" : null, 0, T, T, 0, 0);
    }

    private static LedgerEntry entry(String opId, LedgerType type, long quantity, Long user, String rid) {
        return LedgerEntry.of(opId, GOODS, type, quantity, user, rid, null, 0, T);
    }
}
