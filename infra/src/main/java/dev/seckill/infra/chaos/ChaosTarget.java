package dev.seckill.infra.chaos;

import dev.seckill.contracts.Topics;
import dev.seckill.infra.harness.ServedStrategy;
import dev.seckill.infra.harness.buyers.BuyerLoad;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.stack.ServerProcess;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * What a scenario's fault can reach while the sale runs: the pipeline's processes, the servers the scenario owns, the
 * namespace's settings and topics, the buyers' progress. A fault records what it did (one entry per fault injected,
 * with the time the system took to recover from it) and may leave checks for after the drain.
 */
final class ChaosTarget {
    /** A check run after the writers drained: null when it held, else what broke. */
    interface Check {
        String violation() throws Exception;
    }

    final ServedStrategy pipeline;
    final ChaosServers servers;
    final Settings settings;
    final Topics topics;
    final long goods;
    final long stock;
    final Random random;
    /** The folder each service of the pipeline logs into ({@code <name>.log}). */
    final Path logs;
    /** Where a fault says what it did: the run's narration (stderr under {@code --json}). */
    final PrintStream out;
    /** The scenario's own buyers at the gateway, beside the load's. */
    final GatewayCalls calls;
    /** How long a SIGKILLed service stays down before it is started again ({@code --restart-after-ms}). */
    final long restartAfterMs;

    private final BuyerLoad[] load;
    private final List<Long> recoveries = new ArrayList<>();
    private final List<Long> pausesFrom = new ArrayList<>();
    private final List<NamedCheck> checks = new ArrayList<>();
    private final List<Struck> struck = new ArrayList<>();
    private int faults;
    private long loadEnded = -1;

    ChaosTarget(
            ServedStrategy pipeline,
            ChaosServers servers,
            Settings settings,
            long goods,
            long stock,
            Random random,
            Path logs,
            BuyerLoad[] load,
            PrintStream out,
            GatewayCalls calls,
            ChaosRun.Shape shape) {
        this.pipeline = pipeline;
        this.servers = servers;
        this.settings = settings;
        this.topics = new Topics(settings.topicPrefix());
        this.goods = goods;
        this.stock = stock;
        this.random = random;
        this.logs = logs;
        this.load = load;
        this.out = out;
        this.calls = calls;
        this.restartAfterMs = shape.restartAfterMs();
    }

    /**
     * A fault as recorded: the moment it struck (System.nanoTime) and whether its recovery is read from the buyers
     * ({@link #pauseFrom}).
     */
    record Struck(long at, boolean felt) {}

    /** One fault injected at {@code atNanos} (System.nanoTime), the system back after {@code ms}. */
    synchronized void recovered(long atNanos, long ms) {
        faults++;
        recoveries.add(ms);
        struck.add(new Struck(atNanos, false));
    }

    /** One fault injected at {@code atNanos} that has no recovery time of its own (a burst of traffic). */
    synchronized void injected(long atNanos) {
        faults++;
        struck.add(new Struck(atNanos, false));
    }

    synchronized int faults() {
        return faults;
    }

    /**
     * One fault injected at {@code nanos} (System.nanoTime) whose recovery is read from the buyers afterwards: the time
     * until the first final answer to a request sent after that moment.
     */
    synchronized void pauseFrom(long nanos) {
        faults++;
        pausesFrom.add(nanos);
        struck.add(new Struck(nanos, true));
    }

    /** The moment (System.nanoTime) the buyers' load got its last answer: a fault after it was felt by nobody. */
    synchronized void loadEnded(long nanos) {
        loadEnded = nanos;
    }

    /**
     * Null when every fault struck while the buyers were buying and each one read from the buyers was felt by them (a
     * request sent after it got its final answer); else why not — a fault whose buyers' side was never measured.
     */
    synchronized String unmeasured() {
        return unmeasured(
                List.copyOf(struck), loadEnded, at -> load[0].answers().firstAnswerAfter(at));
    }

    /**
     * As above, for {@code faults} as recorded, the load's end ({@code loadEnded}, System.nanoTime; below 0: unknown)
     * and the milliseconds from a moment to the first final answer to a request sent after it (-1: none).
     */
    static String unmeasured(List<Struck> faults, long loadEnded, LongUnaryOperator firstAnswerAfter) {
        List<String> why = new ArrayList<>();
        for (int k = 0; k < faults.size(); k++) {
            Struck f = faults.get(k);
            if (loadEnded >= 0 && f.at() > loadEnded)
                why.add(String.format(
                        "fault %d was injected %,d ms after the buyers' load ended",
                        k + 1, (f.at() - loadEnded) / 1_000_000));
            else if (f.felt() && firstAnswerAfter.applyAsLong(f.at()) < 0)
                why.add(String.format(
                        "fault %d: no purchase sent after it got a final answer (recovered in never)", k + 1));
        }
        return why.isEmpty() ? null : String.join("; ", why) + ": its buyers' side was never measured";
    }

    /** A check for after the drain, with what it checks (printed with its verdict). */
    synchronized void check(String what, Check c) {
        checks.add(new NamedCheck(() -> what, c));
    }

    /** A check whose description is read after it ran (it may name what the check found). */
    synchronized void check(Supplier<String> what, Check c) {
        checks.add(new NamedCheck(what, c));
    }

    record NamedCheck(Supplier<String> what, Check check) {}

    synchronized List<Long> recoveries() {
        List<Long> all = new ArrayList<>(recoveries);
        for (long at : pausesFrom) all.add(load[0].answers().firstAnswerAfter(at));
        return all;
    }

    /** When each fault whose recovery is read from the buyers struck (System.nanoTime). */
    synchronized List<Long> pausesFrom() {
        return List.copyOf(pausesFrom);
    }

    synchronized List<NamedCheck> checks() {
        return List.copyOf(checks);
    }

    /** A connection to the namespace's database (the scenario's own server, if it has one). */
    Connection db() throws SQLException {
        return DriverManager.getConnection(
                JdbcUrls.withDriverDefaults(settings.dbUrl()), settings.dbUser(), settings.dbPassword());
    }

    BuyerLoad load() {
        return load[0];
    }

    /** True once every buyer has an answer: a fault loop stops there. */
    boolean saleOver() {
        return load[0].finished();
    }

    /**
     * Waits a random moment between {@code minMs} and {@code maxMs} (the next fault's time); false if the buyers have
     * sent every purchase by then: a fault injected now would be felt by no purchase sent after it, so its buyers' side
     * could not be measured (the scenario's table counts the faults injected).
     */
    boolean pause(long minMs, long maxMs) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(minMs + (long) (random.nextDouble() * (maxMs - minMs)));
        return !saleOver() && load[0].unsent() > 0;
    }

    /** A command to one of the scenario's own Redis servers with its own client, redis-cli; returns the reply. */
    static String redisCli(int port, String... command) {
        List<String> cmd = new ArrayList<>(List.of(
                ServerProcess.requireBinary("redis-cli", "redis-tools").toString(), "-p", Integer.toString(port)));
        cmd.addAll(List.of(command));
        return ServerProcess.run(cmd, Duration.ofSeconds(60)).strip();
    }

    /** Polls {@code done} every 100 ms for at most {@code seconds}; returns the milliseconds it took, -1 if never. */
    static long await(BooleanSupplier done, int seconds) throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (done.getAsBoolean()) return (System.nanoTime() - t0) / 1_000_000;
            TimeUnit.MILLISECONDS.sleep(100); // polling servers in other processes
        }
        return -1;
    }
}
