package dev.seckill.stock.decision;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;

/**
 * What deciding one command record produces, one type per kind: what it emits ({@link Emit}: an outcome for a purchase,
 * a ledger entry for every change of stock, or both), a record nobody can answer ({@link DeadLetter}), or nothing at all
 * ({@link Nothing}: an upstream retry of a decided id, whose answer is out already, or an operation that changed
 * nothing). The accessors answer for every kind (null / false where it has none), as the topology routes them.
 */
public sealed interface Decision {
    /** An outcome (may be null when only stock changed) and a ledger entry (null when stock did not change). */
    record Emit(Outcome outcome, LedgerEntry ledger) implements Decision {}

    /** To the DLQ, with why. */
    record DeadLetter(String dlqReason) implements Decision {}

    /** Nothing to emit. */
    record Nothing() implements Decision {}

    Decision NOTHING = new Nothing();

    static Decision dlq(String reason) {
        return new DeadLetter(reason);
    }

    /** A purchase's outcome, no change of stock. */
    static Decision of(Outcome outcome) {
        return new Emit(outcome, null);
    }

    static Decision of(Outcome outcome, LedgerEntry ledger) {
        return new Emit(outcome, ledger);
    }

    default Outcome outcome() {
        return null;
    }

    default LedgerEntry ledger() {
        return null;
    }

    default String dlqReason() {
        return null;
    }

    default boolean hasOutcome() {
        return outcome() != null;
    }

    default boolean hasLedger() {
        return ledger() != null;
    }

    default boolean toDlq() {
        return this instanceof DeadLetter;
    }
}
