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

    private final BuyerLoad[] load;
    private final List<Long> recoveries = new ArrayList<>();
    private final List<Long> pausesFrom = new ArrayList<>();
    private final List<NamedCheck> checks = new ArrayList<>();
    private int faults;

    ChaosTarget(
            ServedStrategy pipeline,
            ChaosServers servers,
            Settings settings,
            long goods,
            long stock,
            Random random,
            Path logs,
            BuyerLoad[] load,
            PrintStream out) {
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
    }

    /** One fault injected, the system back after {@code ms}. */
    synchronized void recovered(long ms) {
        faults++;
        recoveries.add(ms);
    }

    /** One fault injected that has no recovery time of its own (a burst of traffic). */
    synchronized void injected() {
        faults++;
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

    /** Waits a random moment between {@code minMs} and {@code maxMs} (the next fault's time); false if the sale ended. */
    boolean pause(long minMs, long maxMs) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(minMs + (long) (random.nextDouble() * (maxMs - minMs)));
        return !saleOver();
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
