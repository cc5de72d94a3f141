package dev.seckill.infra.harness;

import java.time.Duration;
import java.util.function.LongFunction;

/**
 * One run of {@link HttpLoad}: who is hit with what, at which pace, through which client. Made by
 * {@link #closed}, each option then set by a method that returns a changed copy.
 */
public final class LoadSpec implements Cloneable {
    /** Which client sends: raw bytes on Netty (the benchmarks' lean one) or Vert.x's HTTP client. */
    public enum Generator {
        RAW,
        VERTX
    }

    private int port;
    private long goodsId;
    private int requests;
    private int connections;
    private long firstUser = 1;
    private int users;
    private long seed;
    private LongFunction<String> bearerOf;
    private double rate;
    private Duration jitQuiet = Duration.ZERO;
    private String requestIdPrefix;
    private int waitSeconds;
    private Generator generator = Generator.RAW;
    private boolean keepIds;

    private LoadSpec() {}

    /**
     * A closed loop of {@code requests} over {@code connections} connections, buyers drawn (seeded) from
     * {@code 1..users}; the raw generator, no JIT wait, no client ids, no wait preference, accepted ids not kept.
     *
     * @param bearerOf the Authorization header value for a buyer, or null when auth is off
     */
    public static LoadSpec closed(
            int port,
            long goodsId,
            int requests,
            int connections,
            int users,
            long seed,
            LongFunction<String> bearerOf) {
        LoadSpec s = new LoadSpec();
        s.port = port;
        s.goodsId = goodsId;
        s.requests = requests;
        s.connections = connections;
        s.users = users;
        s.seed = seed;
        s.bearerOf = bearerOf;
        return s;
    }

    /** An open loop offering {@code perSecond} requests per second (0: closed loop). */
    public LoadSpec atRate(double perSecond) {
        LoadSpec c = copy();
        c.rate = perSecond;
        return c;
    }

    /** Every request carries {@code Prefer: wait=N} (0: none); its latency is its time to answer, not to the 202. */
    public LoadSpec waiting(int seconds) {
        LoadSpec c = copy();
        c.waitSeconds = seconds;
        return c;
    }

    /** Buyers drawn from {@code first .. first + count - 1}. */
    public LoadSpec buyers(long first, int count) {
        LoadSpec c = copy();
        c.firstUser = first;
        c.users = count;
        return c;
    }

    /** Before the clock starts, wait (at most this long) for the JIT to finish what it has queued. */
    public LoadSpec quietJit(Duration upTo) {
        LoadSpec c = copy();
        c.jitQuiet = upTo;
        return c;
    }

    /** Request i carries the client requestId {@code prefix + i} (null: the gateway assigns them). */
    public LoadSpec withRequestIds(String prefix) {
        LoadSpec c = copy();
        c.requestIdPrefix = prefix;
        return c;
    }

    /** Sent through this client. */
    public LoadSpec via(Generator g) {
        LoadSpec c = copy();
        c.generator = g;
        return c;
    }

    /**
     * Keep the accepted requestIds (drills check each one's outcome); a benchmark only counts them, so that a growing
     * set of ids does not add to the collector's work in the same JVM.
     */
    public LoadSpec keepingIds() {
        LoadSpec c = copy();
        c.keepIds = true;
        return c;
    }

    private LoadSpec copy() {
        try {
            return (LoadSpec) clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    public int port() {
        return port;
    }

    public long goodsId() {
        return goodsId;
    }

    public int requests() {
        return requests;
    }

    public int connections() {
        return connections;
    }

    public long firstUser() {
        return firstUser;
    }

    public int users() {
        return users;
    }

    public long seed() {
        return seed;
    }

    public LongFunction<String> bearerOf() {
        return bearerOf;
    }

    public double rate() {
        return rate;
    }

    public Duration jitQuiet() {
        return jitQuiet;
    }

    public String requestIdPrefix() {
        return requestIdPrefix;
    }

    public int waitSeconds() {
        return waitSeconds;
    }

    public Generator generator() {
        return generator;
    }

    public boolean keepIds() {
        return keepIds;
    }
}
