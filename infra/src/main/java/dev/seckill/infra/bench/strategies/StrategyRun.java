package dev.seckill.infra.bench.strategies;

import dev.seckill.contracts.Topics;
import dev.seckill.infra.harness.Latencies;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.ServedStrategy;
import dev.seckill.infra.harness.audit.SaleFacts;
import dev.seckill.infra.harness.audit.StrategyAudit;
import dev.seckill.infra.harness.buyers.Answer;
import dev.seckill.infra.harness.buyers.AnswerHops;
import dev.seckill.infra.harness.buyers.BuyerAnswers;
import dev.seckill.infra.harness.buyers.BuyerLoad;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.kit.kafka.TopicProvisioner;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One strategy, one sale: its own namespace (database, Redis prefix, topics), its processes started fresh, the
 * workload from {@link BuyerLoad}, with the fault run's SIGKILL and restart mid-sale, the asynchronous orders drained,
 * the audit, then everything it created removed.
 */
public final class StrategyRun {
    static final String PIPELINE = "pipeline";

    /**
     * The sale every strategy faces; {@code warmup}: purchases of the same shape on {@link #StrategyWarmup.GOODS} first (0: none).
     */
    /** The sale; {@code buckets}: how many stock buckets the pipeline's sale is split into (the baselines have none). */
    record Workload(long stock, int requests, int concurrency, int users, long seed, int warmup, int buckets) {
        Workload(long stock, int requests, int concurrency, int users, long seed, int warmup) {
            this(stock, requests, concurrency, users, seed, warmup, 1);
        }
    }

    /** What one run measured. */
    record Result(
            String strategy,
            boolean fault,
            int requests,
            long noAnswer,
            double answersPerSecond,
            double p50,
            double p99,
            FirstSecond firstSecond,
            Map<String, Long> outcomes,
            StrategyAudit audit,
            int peakActiveConnections,
            long faultMillis) {}

    /**
     * The requests first sent in the sale's first second: how many, the answered ones' time to answer p50/p99 (ms; NaN:
     * none answered), and where the time of those the pipeline's stream decided went (null: none, or a baseline).
     */
    record FirstSecond(int requests, double p50, double p99, AnswerHops hops) {
        static FirstSecond of(BuyerLoad load) {
            BuyerAnswers.SentWithin w = load.answers().sentWithin(TimeUnit.SECONDS.toNanos(1));
            long[] micros = w.answeredMicros();
            return micros.length == 0
                    ? new FirstSecond(w.sent(), Double.NaN, Double.NaN, null)
                    : new FirstSecond(
                            w.sent(),
                            Latencies.percentileMillis(micros, 50, 0),
                            Latencies.percentileMillis(micros, 99, 0),
                            w.hops());
        }
    }

    private StrategyRun() {}

    static Result run(Settings base, String runName, String strategy, boolean fault, Workload w, PrintStream out)
            throws Exception {
        Namespace ns = Namespace.create(base, runName + "-" + strategy + (fault ? "-fault" : ""));
        Settings s = ns.settings();
        Path logs = Path.of(System.getenv().getOrDefault("SECKILL_HOME", ".seckill"), "logs", ns.name());
        ServedStrategy served;
        if (strategy.equals(PIPELINE)) {
            TopicProvisioner.ensure(s, new Topics(s.topicPrefix()));
            served = ServedStrategy.pipeline(s, logs, Map.of(), false);
        } else {
            BaselineSale.prepare(
                    ns, strategy, Map.of(StrategyWarmup.GOODS, StrategyWarmup.stock(w), Sales.GOODS, w.stock()));
            served = ServedStrategy.baseline(strategy, StrategyMain.class.getName(), s, logs);
        }
        try (served) {
            long ready = served.start();
            if (strategy.equals(PIPELINE)) {
                Sales.open(s, StrategyWarmup.GOODS, StrategyWarmup.stock(w));
                Sales.open(
                        s,
                        Sales.started(Sales.GOODS, w.stock(), Duration.ofHours(1), 1, "cold-open-" + Sales.GOODS)
                                .withBuckets(w.buckets()),
                        Duration.ofMinutes(2));
            }
            out.printf(
                    "%n-- %s%s (namespace %s; ready in %,d ms)%n",
                    strategy, fault ? ", SIGKILL mid-sale" : "", ns.name(), ready);
            StrategyWarmup.run(s, served, strategy, w, out);
            return measure(s, ns, served, strategy, fault, w, out);
        } finally {
            ns.deleteTopics();
            ns.deleteRedisKeys();
            ns.dropDatabase();
        }
    }

    private static Result measure(
            Settings s,
            Namespace ns,
            ServedStrategy served,
            String strategy,
            boolean fault,
            Workload w,
            PrintStream out)
            throws Exception {
        String url = JdbcUrls.withDriverDefaults(s.dbUrl());
        ProgressBar bar = new ProgressBar(strategy, w.requests());
        AtomicLong faultMillis = new AtomicLong(-1);
        Runnable kill = () -> {
            try {
                faultMillis.set(served.killAndRestart());
                out.printf("%nSIGKILLed and restarted in %,d ms (%s)%n", faultMillis.get(), served.readiness());
            } catch (Exception e) {
                out.printf("%nthe restart after the SIGKILL failed: %s%n", e.getMessage());
            }
        };
        BuyerLoad load;
        int peak;
        try (ConnectionPeak connections = new ConnectionPeak(url, s.dbUser(), s.dbPassword(), ns.database())) {
            load = new BuyerLoad(
                            new BuyerLoad.Spec(
                                    served.port(),
                                    Sales.GOODS,
                                    w.requests(),
                                    w.concurrency(),
                                    w.users(),
                                    w.seed(),
                                    strategy.equals(PIPELINE) ? 10 : 0),
                            bar::update,
                            fault ? (int) (w.stock() / 2) : Integer.MAX_VALUE,
                            fault ? kill : null)
                    .run();
            load.awaitFault();
            peak = connections.peakActive();
        }
        bar.finish(w.requests());
        try (Connection c = Sales.connect(url, s.dbUser(), s.dbPassword())) {
            Sales.awaitOrders(
                    c,
                    Arrays.stream(load.outcome)
                            .filter(Answer.SUCCESS.name()::equals)
                            .count());
            return result(
                    strategy,
                    fault,
                    w,
                    load,
                    StrategyAudit.of(
                            SaleFacts.ofDatabase(c, Sales.GOODS, w.stock()).told(load)),
                    peak,
                    faultMillis.get());
        }
    }

    private static Result result(
            String strategy,
            boolean fault,
            Workload w,
            BuyerLoad load,
            StrategyAudit audit,
            int peak,
            long faultMillis) {
        Map<String, Long> outcomes = new TreeMap<>();
        for (String o : load.outcome) outcomes.merge(o == null ? BuyerLoad.NO_ANSWER : o, 1L, Long::sum);
        long noAnswer = outcomes.getOrDefault(BuyerLoad.NO_ANSWER, 0L);
        long[] answered = answeredLatencies(load);
        return new Result(
                strategy,
                fault,
                w.requests(),
                noAnswer,
                answered.length / (load.elapsedNanos / 1e9),
                Latencies.percentileMillis(answered, 50, 0),
                Latencies.percentileMillis(answered, 99, 0),
                FirstSecond.of(load),
                outcomes,
                audit,
                peak,
                faultMillis);
    }

    private static long[] answeredLatencies(BuyerLoad load) {
        long[] all = new long[load.outcome.length];
        int n = 0;
        for (int i = 0; i < all.length; i++)
            if (load.outcome[i] != null && !load.outcome[i].equals(BuyerLoad.NO_ANSWER))
                all[n++] = load.latencyMicros[i];
        return Arrays.copyOf(all, n);
    }
}
