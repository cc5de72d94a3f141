package dev.seckill.stock.decision;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.stock.bucket.Hop;
import java.util.ArrayList;
import java.util.List;

/**
 * What deciding one command record produces, one type per kind: what it emits ({@link Emit}: an outcome for a purchase,
 * a ledger entry for every change of stock, or both), a record nobody can answer ({@link DeadLetter}), or nothing at all
 * ({@link Nothing}: an upstream retry of a decided id, whose answer is out already, or an operation that changed
 * nothing). The accessors answer for every kind (null / false where it has none), as the topology routes them.
 */
public sealed interface Decision {
    /**
     * An outcome (may be null when only stock changed), a ledger entry (null when stock did not change) and the hops to
     * other buckets of the goods it sends (empty but for a bucketed goods: docs/decisions.md, "Stock buckets").
     */
    record Emit(Outcome outcome, LedgerEntry ledger, List<Hop> hops) implements Decision {
        public Emit(Outcome outcome, LedgerEntry ledger) {
            this(outcome, ledger, List.of());
        }
    }

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

    /** Only hops: a command routed to its bucket, a purchase parked, a borrow passed on. */
    static Decision hops(List<Hop> hops) {
        return new Emit(null, null, List.copyOf(hops));
    }

    /** This decision with {@code more} hops sent too (a DLQ record or nothing becomes the hops alone). */
    default Decision sending(List<Hop> more) {
        if (more.isEmpty()) return this;
        if (!(this instanceof Emit e)) return hops(more);
        List<Hop> all = new ArrayList<>(e.hops());
        all.addAll(more);
        return new Emit(e.outcome(), e.ledger(), List.copyOf(all));
    }

    default List<Hop> hops() {
        return List.of();
    }

    default boolean hasHops() {
        return !hops().isEmpty();
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
