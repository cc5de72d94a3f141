package dev.seckill.infra.harness;

import java.time.Duration;
import java.util.function.Consumer;
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
        return new LoadSpec().with(s -> {
            s.port = port;
            s.goodsId = goodsId;
            s.requests = requests;
            s.connections = connections;
            s.users = users;
            s.seed = seed;
            s.bearerOf = bearerOf;
        });
    }

    /** An open loop offering {@code perSecond} requests per second (0: closed loop). */
    public LoadSpec atRate(double perSecond) {
        return with(c -> c.rate = perSecond);
    }

    /** Every request carries {@code Prefer: wait=N} (0: none); its latency is its time to answer, not to the 202. */
    public LoadSpec waiting(int seconds) {
        return with(c -> c.waitSeconds = seconds);
    }

    /** Buyers drawn from {@code first .. first + count - 1}. */
    public LoadSpec buyers(long first, int count) {
        return with(c -> {
            c.firstUser = first;
            c.users = count;
        });
    }

    /** Before the clock starts, wait (at most this long) for the JIT to finish what it has queued. */
    public LoadSpec quietJit(Duration upTo) {
        return with(c -> c.jitQuiet = upTo);
    }

    /** Request i carries the client requestId {@code prefix + i} (null: the gateway assigns them). */
    public LoadSpec withRequestIds(String prefix) {
        return with(c -> c.requestIdPrefix = prefix);
    }

    /** Sent through this client. */
    public LoadSpec via(Generator g) {
        return with(c -> c.generator = g);
    }

    /**
     * Keep the accepted requestIds (drills check each one's outcome); a benchmark only counts them, so that a growing
     * set of ids does not add to the collector's work in the same JVM.
     */
    public LoadSpec keepingIds() {
        return with(c -> c.keepIds = true);
    }

    /** A copy with {@code change} made to it; this one stays as it is. */
    private LoadSpec with(Consumer<LoadSpec> change) {
        try {
            LoadSpec c = (LoadSpec) clone();
            change.accept(c);
            return c;
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
