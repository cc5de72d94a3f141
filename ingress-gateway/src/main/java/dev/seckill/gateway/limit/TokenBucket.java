package dev.seckill.gateway.limit;

/**
 * A token bucket: {@code ratePerSecond} tokens a second, at most {@code burst} saved up. Thread-safe. A bucket can be
 * retired (dropped from its map); a take from a retired bucket answers {@link #RETIRED} so that the caller takes from
 * the bucket the map holds now instead.
 */
public final class TokenBucket {
    /** What {@link #tryTake} answers once the bucket has been retired. */
    public static final long RETIRED = -1;

    private final double ratePerNano;
    private final double burst;
    private double tokens;
    private long last;
    private boolean retired;

    public TokenBucket(double ratePerSecond, double burst, long nowNanos) {
        this.ratePerNano = ratePerSecond / 1e9;
        this.burst = burst;
        this.tokens = burst;
        this.last = nowNanos;
    }

    /** Takes one token; returns 0 when granted, {@link #RETIRED}, else the nanoseconds until one will be there. */
    public synchronized long tryTake(long nowNanos) {
        if (retired) return RETIRED;
        refill(nowNanos);
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        return (long) Math.ceil((1 - tokens) / ratePerNano);
    }

    /** Puts back a token taken for something that turned out not to count (never above the burst). */
    public synchronized void giveBack() {
        tokens = Math.min(burst, tokens + 1);
    }

    /**
     * Retires the bucket if it holds at least {@code minTokens} (use {@code burst} for "full": a full bucket answers
     * exactly as a new one would); true when it did.
     */
    public synchronized boolean retireIfAtLeast(double minTokens, long nowNanos) {
        refill(nowNanos);
        if (tokens >= Math.min(minTokens, burst)) retired = true;
        return retired;
    }

    double burst() {
        return burst;
    }

    private void refill(long nowNanos) {
        if (nowNanos > last) {
            tokens = Math.min(burst, tokens + (nowNanos - last) * ratePerNano);
            last = nowNanos;
        }
    }
}
