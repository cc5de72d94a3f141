package dev.seckill.stock.decision;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Release;
import java.time.Instant;

/** The operations the stream refuses, each to the DLQ with its reason in words (the operator reads it there). */
final class OperationRefusals {
    private OperationRefusals() {}

    /**
     * An open_sale whose window had ended when it was issued (judged by the record's own time, never the wall clock,
     * so a drill replaying a recording decides it as the recording did): nothing could ever be bought in it.
     */
    static Decision endedBeforeIssued(OpenSale o, long issuedAt) {
        return Decision.dlq(
                "open_sale refused: its window ended at " + o.endAt() + ", before the command was issued at "
                        + Instant.ofEpochMilli(issuedAt) + " (the record's timestamp); send a window that ends later");
    }
    /**
     * A drawn sale on a stream with no beacon (stream.draw.beacon=off): it could not name the round its draw takes, and
     * deciding the window first come first served would break the sale's promise, so no sale is opened.
     */
    static Decision noDrawBeacon(OpenSale o) {
        return Decision.dlq("open_sale refused: fairness " + o.fairness().wire()
                + " needs a randomness beacon (SECKILL_STREAM_DRAW_BEACON), and this stream has none (off); set it"
                + " on every instance, or open the sale with fairness fcfs");
    }

    /**
     * A drawn sale whose start is more than {@link OpenSale#MAX_DRAW_LEAD_MS} after the open was sent: its window and
     * its beacon round are promised that long ahead, and a slip in the start (seconds read as milliseconds, say) would
     * hold the goods' window far in the future. Refused, naming the field.
     */
    static Decision drawStartsTooLate(OpenSale o, long issuedAt) {
        return Decision.dlq("open_sale refused: startAt " + o.startAt() + " of a "
                + o.fairness().wire()
                + " is more than " + OpenSale.MAX_DRAW_LEAD_MS / 86_400_000 + " days after the command was issued at "
                + Instant.ofEpochMilli(issuedAt) + "; open a drawn sale at most that long before its start");
    }
    /**
     * A forced open while buyers of the previous sale still hold units: their orders (unpaid, or paid) would lose
     * the units they hold, and a payment after it would sell a unit the new stock does not count. A goods holds one
     * sale at a time: release or let the previous sale's orders end; paid ones end with its keys' lifetime.
     */
    static Decision forcedOverLiveBuyers(OpenSale o, int holders) {
        return Decision.dlq(
                "open_sale refused: " + holders + " buyers of the previous sale of goods " + o.goodsId()
                        + " still hold units (their orders are unpaid or paid); a forced open would orphan them. Let them be"
                        + " released (payment timeout, cancel) or wait until the previous sale's keys expire, then open without force");
    }
    /** A release of a purchase marked paid: refused (nothing given back), and shown on the DLQ with the reason. */
    static Decision releaseOfPaid(Release rel) {
        return Decision.dlq("release refused: the purchase " + (rel.requestId() == null ? "" : rel.requestId() + " ")
                + "that user " + rel.userId() + " holds of goods " + rel.goodsId()
                + " is paid; a paid order is never released"
                + " (docs/invariants.md, invariant 7): refund it through the payment provider, not by a release");
    }
}
