package dev.seckill.contracts.outcome;

import java.time.Instant;

/**
 * The one decision for a purchase {@code requestId}. {@code reason} is set for REJECTED
 * ({@code not_started}, {@code ended}, {@code no_sale}, {@code over_limit}, {@code invalid}).
 * {@code partition}/{@code offset} locate the command that was decided. {@code detail}, optional, says in words why a
 * REJECTED {@code invalid} was refused (e.g. a requestId reused for another purchase); null otherwise.
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
        String detail) {

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
                text);
    }

    /** The same decision with the fields that may differ between two runs of the same log blanked. */
    public Outcome withoutRunFields() {
        return new Outcome(
                v, requestId, goodsId, userId, quantity, outcome, reason, stockAfter, acceptedAt, null, 0, 0, detail);
    }
}
