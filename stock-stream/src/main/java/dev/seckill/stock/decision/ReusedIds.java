package dev.seckill.stock.decision;

import dev.seckill.stock.ledger.GoodsFold;

/**
 * A requestId the goods already has a decision for, sent again for another purchase: another buyer or quantity, or
 * in a later sale of the goods. Not a retry (whose answer is out already) and not a new purchase (the id is taken: an
 * order, a status and a ledger entry are keyed by it): REJECTED {@code invalid} with the reason in {@code detail}, and
 * the id keeps its first decision (docs/contracts.md, "Ids").
 */
final class ReusedIds {
    private ReusedIds() {}

    /** Why {@code requestId} cannot be decided again for {@code payload}; null when it is a retry of its decision. */
    static String why(String requestId, String payload, StoredDecision decided, GoodsFold fold, int partition) {
        if (!decided.payload().equals(payload)) {
            String[] was = decided.payload().split(":");
            String[] now = payload.split(":");
            String field = !was[0].equals(now[0]) ? "userId" : "quantity";
            String was0 = PurchaseDecisions.PARKED.equals(decided.result())
                    ? " is being decided (parked until units come)"
                    : " was already decided (" + decided.result() + ")";
            return "requestId " + requestId + was0 + " for userId " + was[0]
                    + " quantity " + was[1] + "; this one differs in " + field
                    + ": a new purchase needs a new requestId";
        }
        long at = decided.offsetIn(partition);
        if (fold != null && fold.openOffset >= 0 && at >= 0 && at < fold.openOffset)
            return "requestId " + requestId + " was decided (" + decided.result() + ") in an earlier sale of goods"
                    + " (before the open at offset " + fold.openOffset + "): a new purchase needs a new requestId";
        return null;
    }
}
