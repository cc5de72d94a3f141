package dev.seckill.stock;

/**
 * When a task should ask Kafka Streams for its commit at once rather than at the next {@code commit.interval.ms}: when
 * the stream is caught up — the newest command just decided was produced less than {@code freshMs} ago (the commit
 * interval: an older command is a backlog, which an early commit would not answer sooner than the interval does) —
 * and the last such request is at least {@code everyMs} old. A decision is visible to buyers (read_committed) only
 * after the commit, so on a caught-up stream this takes the commit interval out of the time to answer, while a
 * backlog commits at the interval and keeps its throughput. Clocks: the command's timestamp is the producer's (the
 * gateway's); a gateway clock behind by more than {@code freshMs} turns early commits off (the interval applies), one
 * ahead makes every drain eligible (commits at most every {@code everyMs}). A task's first drain after it
 * {@link #started} commits at once whatever its commands' age: a task that just started took work over (a peer's
 * failover, a restart, a rebalance) whose buyers waited through it, and one commit per start costs no throughput.
 */
final class EarlyCommit {
    private final long everyMs;
    private final long freshMs;
    private long lastRequestMs = Long.MIN_VALUE / 2;
    /** The task started and has not drained since. */
    private boolean firstDrain;

    /**
     * @param everyMs at most one request per this many ms; 0 for never
     * @param freshMs a command younger than this means caught up (the commit interval)
     */
    EarlyCommit(long everyMs, long freshMs) {
        this.everyMs = everyMs;
        this.freshMs = Math.max(everyMs, freshMs);
    }

    /** The task (re)started: its first drain asks for a commit at once. */
    void started() {
        firstDrain = true;
    }

    /** Whether to request a commit now, given the timestamp of the newest command just decided (and notes it if so). */
    boolean due(long newestCommandMs, long nowMs) {
        boolean first = firstDrain;
        firstDrain = false;
        if (first && everyMs > 0) {
            lastRequestMs = nowMs;
            return true;
        }
        if (everyMs <= 0
                || newestCommandMs < 0
                || nowMs - newestCommandMs >= freshMs
                || nowMs - lastRequestMs < everyMs) return false;
        lastRequestMs = nowMs;
        return true;
    }
}
