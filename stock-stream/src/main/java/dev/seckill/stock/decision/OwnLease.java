package dev.seckill.stock.decision;

/**
 * What this instance knows of its own lease (docs/decisions.md, "A frozen instance does not rebuild Redis"): how many
 * times it went unrenewed long enough that a peer may have removed it from the group and taken its tasks over — a lapse
 * still going on counted. A task that saw the count change since it started may be a zombie whose work a survivor
 * decides now: it must not write Redis from its own fold.
 */
@FunctionalInterface
public interface OwnLease {
    /** An instance without a lease (no peers judge it): never lapsed. */
    OwnLease NONE = () -> 0;

    /** The lapses so far, one going on now included. */
    long lapses();
}
