package dev.seckill.infra.bench;

/**
 * Every target a benchmark is held to, declared once: the row of docs/performance.md's "Current figures" it belongs
 * to (its first cell, or that cell up to its parenthesis), the target as that row states it, and the bound on the
 * ratio it sets. The printers read their verdicts from here, and {@code TargetsTest} holds each entry equal to its
 * row, so a target changed in one place and not the other fails the build.
 */
public enum Targets {
    DECIDE_AS_GIVEN("stock-stream, the sale as given", "≥ ×1.4 pipelined", Bound.AT_LEAST, 1.4),
    DECIDE_THROUGH_LUA(
            "stock-stream, every purchase through Lua",
            "≥ ×1.0 pipelined; ≥ 31,000/s for one goods",
            Bound.AT_LEAST,
            1.0),
    HOT_TWO_BUCKETS(
            "stock-stream, one hot goods split into buckets",
            "2 buckets ≥ ×1.6 of 1 on this machine",
            Bound.AT_LEAST,
            1.6),
    STRATEGIES_BUCKETS_P99(
            "the write-up's strategies with the pipeline's sale in buckets", "p99 ≤ ×1.0", Bound.AT_MOST, 1.0),
    GATEWAY_CLOSED_LOOP("gateway, closed loop", "≥ ×0.5 raw producer", Bound.AT_LEAST, 0.5),
    ANSWER_THROUGHPUT("stream throughput under the time-to-answer defaults", "≥ ×1.4 pipelined", Bound.AT_LEAST, 1.4),
    COLD_START("the sale's first second on fresh services", "warm-up on ≤ ×2 of warmed", Bound.AT_MOST, 2.0),
    HOSTILE_FLOOD("a sale beside a hostile flood", "≤ ×2; 404 and claims lost 0", Bound.AT_MOST, 2.0),
    STRATEGIES_PESSIMISTIC(
            "the write-up's strategies: throughput", "≥ ×10 pessimistic; ≥ ×0.8 synchronous", Bound.AT_LEAST, 10),
    STRATEGIES_SYNCHRONOUS(
            "the write-up's strategies: throughput", "≥ ×10 pessimistic; ≥ ×0.8 synchronous", Bound.AT_LEAST, 0.8),
    STRATEGIES_P99("the write-up's strategies: time to answer", "≤ ×2", Bound.AT_MOST, 2.0),
    STRATEGIES_SYNC_TAIL(
            "the write-up's strategies: time to answer, against the synchronous design's tail",
            "p99 ≤ ×1.0",
            Bound.AT_MOST,
            1.0);

    /** Which side of the bound a ratio must be on. */
    public enum Bound {
        AT_LEAST,
        AT_MOST
    }

    /** The first cell of the target's row in docs/performance.md, up to its parenthesis if it has one. */
    public final String row;
    /** The target as its row states it (the "target (ratio)" cell). */
    public final String stated;

    public final Bound bound;
    public final double ratio;

    Targets(String row, String stated, Bound bound, double ratio) {
        this.row = row;
        this.stated = stated;
        this.bound = bound;
        this.ratio = ratio;
    }

    /** Whether a measured ratio meets the target (a ratio that could not be measured does not). */
    public boolean met(double measured) {
        if (Double.isNaN(measured)) return false;
        return bound == Bound.AT_LEAST ? measured >= ratio : measured <= ratio;
    }

    /** "met" or "MISSED", as the printers say it. */
    public String verdict(double measured) {
        return met(measured) ? "met" : "MISSED";
    }

    /** The bound in a printer's words: {@code ≥ ×0.5}, {@code ≤ ×2}. */
    public String bound() {
        return (bound == Bound.AT_LEAST ? "≥ ×" : "≤ ×")
                + (ratio == Math.rint(ratio) ? Long.toString((long) ratio) : Double.toString(ratio));
    }
}
