package dev.seckill.gateway.limit;

/** A token bucket: {@code ratePerSecond} tokens a second, at most {@code burst} saved up. Thread-safe. */
public final class TokenBucket {
    private final double ratePerNano;
    private final double burst;
    private double tokens;
    private long last;

    public TokenBucket(double ratePerSecond, double burst, long nowNanos) {
        this.ratePerNano = ratePerSecond / 1e9;
        this.burst = burst;
        this.tokens = burst;
        this.last = nowNanos;
    }

    /** Takes one token; returns 0 when granted, else the nanoseconds until one will be there. */
    public synchronized long tryTake(long nowNanos) {
        tokens = Math.min(burst, tokens + (nowNanos - last) * ratePerNano);
        last = nowNanos;
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        return (long) Math.ceil((1 - tokens) / ratePerNano);
    }
}
