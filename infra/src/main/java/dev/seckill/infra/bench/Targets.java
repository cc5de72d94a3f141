package dev.seckill.infra.bench;

/**
 * Every target a benchmark is held to, declared once: the row of docs/performance.md's "Current figures" it belongs
 * to (its first cell, or that cell up to its parenthesis), the target as that row states it, the bound it sets on a
 * ratio to the run's reference (or, for the write-up's absolute targets, on the figure itself), and why a miss is a
 * miss on this machine where that is known. The printers and the generated "Current figures" table
 * ({@code HeadlineTable}) read their verdicts from here; {@code TargetsTest} holds that every target has its row.
 */
public enum Targets {
    DECIDE_AS_GIVEN("stock-stream, the sale as given", "≥ ×1.4 pipelined", Bound.AT_LEAST, 1.4, "", ""),
    DECIDE_THROUGH_LUA(
            "stock-stream, every purchase through Lua",
            "≥ ×1.0 pipelined",
            Bound.AT_LEAST,
            1.0,
            "",
            "on two cores the machine's CPU, not the stream thread, is the limit (\"Where the time goes\")"),
    DECIDE_ONE_GOODS(
            "stock-stream, every purchase through Lua",
            "≥ 31,000/s for one goods",
            Bound.AT_LEAST,
            31_000,
            "/s",
            "below AliSQL's published figure for one hot row"),
    HOT_TWO_BUCKETS(
            "stock-stream, one hot goods split into buckets",
            "2 buckets ≥ ×1.6 of 1 on this machine",
            Bound.AT_LEAST,
            1.6,
            "",
            "two shared cores give a second serial place little CPU (\"Stock buckets: one goods over partitions\")"),
    GATEWAY_CLOSED_LOOP(
            "gateway, closed loop",
            "≥ ×0.5 raw producer",
            Bound.AT_LEAST,
            0.5,
            "",
            "HTTP on two cores: the same generator against a server that answers at once reaches 30–37k/s, and the"
                    + " gateway's own work shares those cores"),
    GATEWAY_OPEN_P99(
            "gateway, open loop",
            "p99 ≤ 25 ms with every request accepted",
            Bound.AT_MOST,
            25,
            " ms",
            "15,000/s is at this machine's closed-loop capacity (15–23k/s in the same runs): a run that falls behind"
                    + " queues, p99 37 ms to 1.2 s over nine runs"),
    ANSWER_SEQUENTIAL_P50("time to answer, one request at a time", "p50 ≤ 50 ms", Bound.AT_MOST, 50, " ms", ""),
    ANSWER_OPEN_P99("time to answer, open loop", "p99 ≤ 150 ms", Bound.AT_MOST, 150, " ms", ""),
    ANSWER_THROUGHPUT(
            "stream throughput under the time-to-answer defaults", "≥ ×1.4 pipelined", Bound.AT_LEAST, 1.4, "", ""),
    COLD_START("the sale's first second on fresh services", "warm-up on ≤ ×2 of warmed", Bound.AT_MOST, 2.0, "", ""),
    HOSTILE_FLOOD(
            "a sale beside a hostile flood",
            "≤ ×2",
            Bound.AT_MOST,
            2.0,
            "",
            "the flood and the sale share two cores with every server (other runs under load ×1.2–×5.7)"),
    STRATEGIES_PESSIMISTIC(
            "the write-up's strategies: throughput",
            "≥ ×10 pessimistic",
            Bound.AT_LEAST,
            10,
            "",
            "above the load generator's own ceiling on this machine"),
    STRATEGIES_SYNCHRONOUS("the write-up's strategies: throughput", "≥ ×0.8 synchronous", Bound.AT_LEAST, 0.8, "", ""),
    STRATEGIES_SYNC_TAIL(
            "the write-up's strategies: time to answer",
            "p99 ≤ ×1.0 synchronous",
            Bound.AT_MOST,
            1.0,
            "",
            "the first second's CPU, not a hop (\"Where the tail is made\")");

    /** Which side of the bound a ratio must be on. */
    public enum Bound {
        AT_LEAST,
        AT_MOST
    }

    /** The first cell of the target's row in docs/performance.md, up to its parenthesis if it has one. */
    public final String row;
    /** The target as its row states it (the "target" cell). */
    public final String stated;

    public final Bound bound;
    /** The bound on the figure: a ratio to the run's reference, or an absolute figure in {@link #unit}. */
    public final double value;
    /** "" for a ratio; the unit of an absolute bound (" ms", "/s"). */
    public final String unit;
    /** Why a miss is a miss on this machine, where that is known; "" when a miss has no known cause. */
    public final String whenMissed;

    Targets(String row, String stated, Bound bound, double value, String unit, String whenMissed) {
        this.row = row;
        this.stated = stated;
        this.bound = bound;
        this.value = value;
        this.unit = unit;
        this.whenMissed = whenMissed;
    }

    /** Whether a measured figure meets the target (a figure that could not be measured does not). */
    public boolean met(double measured) {
        if (Double.isNaN(measured)) return false;
        return bound == Bound.AT_LEAST ? measured >= value : measured <= value;
    }

    /** "met" or "MISSED", as the printers say it. */
    public String verdict(double measured) {
        return met(measured) ? "met" : "MISSED";
    }

    /** The bound in a printer's words: {@code ≥ ×0.5}, {@code ≤ ×2}, {@code ≤ 25 ms}. */
    public String bound() {
        String v = value != Math.rint(value)
                ? Double.toString(value)
                : String.format(java.util.Locale.ROOT, "%,d", (long) value);
        return (bound == Bound.AT_LEAST ? "≥ " : "≤ ") + (unit.isEmpty() ? "×" + v : v + unit);
    }
}
