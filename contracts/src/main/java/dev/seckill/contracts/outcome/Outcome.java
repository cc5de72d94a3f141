package dev.seckill.contracts.outcome;

import java.time.Instant;

/**
 * The one decision for a purchase {@code requestId}. {@code reason} is set for REJECTED
 * ({@code not_started}, {@code ended}, {@code no_sale}, {@code over_limit}, {@code invalid}).
 * {@code partition}/{@code offset} locate the command that was decided. {@code detail}, optional, says in words why a
 * REJECTED {@code invalid} was refused (e.g. a requestId reused for another purchase); null otherwise.
 * {@code heldRequestId}, optional, names on a DUPLICATE the purchase the buyer holds of this goods (its requestId), so
 * a buyer who lost the answer to that purchase learns which one they hold; null on every other outcome.
 */
public record Outcome(
        int v,
        String requestId,
        long goodsId,
        long userId,
        int quantity,
        OutcomeKind outcome,
        String reason,
        long stockAfter,
        Instant acceptedAt,
        Instant decidedAt,
        int partition,
        long offset,
        String detail,
        String heldRequestId) {

    public static Outcome of(
            String requestId,
            long goodsId,
            long userId,
            int quantity,
            OutcomeKind outcome,
            String reason,
            long stockAfter,
            Instant acceptedAt,
            Instant decidedAt,
            int partition,
            long offset) {
        return new Outcome(
                1,
                requestId,
                goodsId,
                userId,
                quantity,
                outcome,
                reason,
                stockAfter,
                acceptedAt,
                decidedAt,
                partition,
                offset,
                null,
                null);
    }

    /** This outcome with a {@code detail} in words (only on REJECTED invalid). */
    public Outcome withDetail(String text) {
        return new Outcome(
                v,
                requestId,
                goodsId,
                userId,
                quantity,
                outcome,
                reason,
                stockAfter,
                acceptedAt,
                decidedAt,
                partition,
                offset,
                text,
                heldRequestId);
    }

    /** This outcome naming the purchase the buyer holds (only on DUPLICATE; null: none known). */
    public Outcome withHeldRequestId(String held) {
        return new Outcome(
                v,
                requestId,
                goodsId,
                userId,
                quantity,
                outcome,
                reason,
                stockAfter,
                acceptedAt,
                decidedAt,
                partition,
                offset,
                detail,
                held);
    }

    /** The same decision with the fields that may differ between two runs of the same log blanked. */
    public Outcome withoutRunFields() {
        return new Outcome(
                v,
                requestId,
                goodsId,
                userId,
                quantity,
                outcome,
                reason,
                stockAfter,
                acceptedAt,
                null,
                0,
                0,
                detail,
                heldRequestId);
    }
}
