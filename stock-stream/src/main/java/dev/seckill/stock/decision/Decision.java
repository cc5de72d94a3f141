package dev.seckill.stock.decision;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;

/**
 * What deciding one command record produces: an outcome for a purchase, a ledger entry for every change of
 * stock, or a DLQ reason for a record nobody can answer. Nothing at all for an upstream retry of a decided id.
 */
public record Decision(Outcome outcome, LedgerEntry ledger, String dlqReason) {
    public static final Decision NOTHING = new Decision(null, null, null);

    public static Decision dlq(String reason) {
        return new Decision(null, null, reason);
    }

    public boolean hasOutcome() {
        return outcome != null;
    }

    public boolean hasLedger() {
        return ledger != null;
    }

    public boolean toDlq() {
        return dlqReason != null;
    }
}
