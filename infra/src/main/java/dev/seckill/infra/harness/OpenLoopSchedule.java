package dev.seckill.infra.harness;

/**
 * When the requests of an open loop are due: the k-th of a sender offering {@code rate} per second is due at
 * {@code start + k / rate}, whatever happened to the ones before (as wrk2 schedules), and its latency counts from
 * then — so a server that stalls cannot hide its queue by slowing the client down (no coordinated omission).
 */
public final class OpenLoopSchedule {
    private final long startNanos;
    private final double rate;
    private int issued;

    public OpenLoopSchedule(long startNanos, double perSecond) {
        if (perSecond <= 0) throw new IllegalArgumentException("an open loop needs a positive rate: " + perSecond);
        this.startNanos = startNanos;
        this.rate = perSecond;
    }

    /** When the k-th request (from 0) is due. */
    public long dueNanos(int k) {
        return startNanos + (long) (k / rate * 1e9);
    }

    /** How many have been taken so far. */
    public int issued() {
        return issued;
    }

    /**
     * The due time of the next request if it is due at {@code now} (and takes it), else -1. Called in a loop by a
     * ticker, it hands out every request that became due since the last tick, each with its own scheduled time.
     */
    public long takeDue(long now) {
        long due = dueNanos(issued);
        if (due > now) return -1;
        issued++;
        return due;
    }
}
