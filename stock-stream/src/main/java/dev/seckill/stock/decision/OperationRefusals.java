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
     * A lottery sale on a stream with no draw secret (stream.draw.secret): it could neither promise a seed nor draw,
     * and deciding the window first come first served would break the sale's promise, so no sale is opened.
     */
    static Decision noDrawSecret(OpenSale o) {
        return Decision.dlq(
                "open_sale refused: fairness " + o.fairness().wire()
                        + " needs the stream's draw secret (SECKILL_STREAM_DRAW_SECRET"
                        + " or its _FILE), and this stream has none; set it on every instance, or open the sale with fairness fcfs");
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
