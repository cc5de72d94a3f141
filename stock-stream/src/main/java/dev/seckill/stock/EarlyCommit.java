package dev.seckill.stock;

/**
 * When a task should ask Kafka Streams for its commit at once rather than at the next {@code commit.interval.ms}: only
 * when the stream is caught up — the newest command just decided was produced at most {@code caughtUpMs} ago — and
 * the last such request is at least {@code caughtUpMs} old. A decision is visible to buyers (read_committed) only
 * after the commit, so on a caught-up stream this takes the commit interval out of the time to answer, while a
 * backlog (old commands) commits at the interval and keeps its throughput: the commit interval is what a busy stream
 * pays per decision, the early commit what a quiet one pays per answer. Clocks: the command's timestamp is the
 * producer's (the gateway's); a gateway clock behind by more than {@code caughtUpMs} turns early commits off (the
 * interval applies), one ahead makes every drain eligible (commits at most every {@code caughtUpMs}).
 */
final class EarlyCommit {
    private final long caughtUpMs;
    private long lastRequestMs = Long.MIN_VALUE / 2;

    /** @param caughtUpMs 0 for never */
    EarlyCommit(long caughtUpMs) { this.caughtUpMs = caughtUpMs; }

    /** Whether to request a commit now, given the timestamp of the newest command just decided (and notes it if so). */
    boolean due(long newestCommandMs, long nowMs) {
        if (caughtUpMs <= 0 || nowMs - newestCommandMs > caughtUpMs || nowMs - lastRequestMs < caughtUpMs) return false;
        lastRequestMs = nowMs;
        return true;
    }
}
