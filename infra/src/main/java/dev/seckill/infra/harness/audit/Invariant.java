package dev.seckill.infra.harness.audit;

/** The invariants of docs/invariants.md the audit checks: each one's number there and its title. */
public enum Invariant {
    NO_OVERSELL(1, "no oversell"),
    ONE_LIVE_PURCHASE_PER_BUYER(2, "one live purchase per (goods, buyer)"),
    EVERY_SUCCESS_ONE_ORDER_ROW(3, "every SUCCESS becomes exactly one order row"),
    THE_THREE_COUNTS_AGREE(4, "the three counts agree"),
    ONE_OUTCOME_PER_PURCHASE(5, "every acknowledged purchase gets exactly one outcome");

    public final int number;
    public final String title;

    Invariant(int number, String title) {
        this.number = number;
        this.title = title;
    }

    /** "invariant 1 (no oversell)": how every line of the audit names it. */
    public String label() {
        return "invariant " + number + " (" + title + ")";
    }
}
