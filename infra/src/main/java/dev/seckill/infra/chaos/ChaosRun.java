package dev.seckill.infra.chaos;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.ServedStrategy;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.infra.harness.audit.SaleFacts;
import dev.seckill.infra.harness.audit.StrategyAudit;
import dev.seckill.infra.harness.buyers.BuyerLoad;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaCluster;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One chaos scenario against the pipeline as three processes (gateway, stock-stream, order-writer) in a namespace of
 * its own: a live sale with more buyers than stock, the scenario's SIGKILLs at seeded random moments while buyers keep
 * buying (and retrying what got no answer), the writers drained, then the invariants read from the database against
 * what every buyer was told — never from the services' own counters.
 */
final class ChaosRun {
    /**
     * Once a scenario's fault starts, the buyers' purchases left are spread over at least this long, so that each of
     * its strikes (three kills, four wipes, a restart seconds later) lands while they still buy and is measured.
     */
    static final long SPREAD_AFTER_FAULT_MS = 20_000;

    /** What one scenario left. */
    record Result(
            ChaosScenario scenario,
            int requests,
            long answered,
            long successes,
            StrategyAudit audit,
            int faults,
            List<Long> recoveries,
            String failure) {
        /**
         * Every invariant held, every buyer answered, and no fault's buyers' side left unmeasured (a "never" recovery:
         * the fault struck after the buyers stopped, so the scenario did not test what it claims).
         */
        boolean passed() {
            return failure == null
                    && recoveries.stream().allMatch(ms -> ms >= 0)
                    && audit.oversold() == 0
                    && audit.duplicateBuyers() == 0
                    && audit.lost() == 0
                    && audit.falseDuplicates() == 0
                    && answered == requests;
        }
    }

    /** The sale: stock, purchases, buyers at once, distinct buyers, the buckets its stock is split across. */
    record Sale(long stock, int requests, int concurrency, int users, int buckets) {}

    /**
     * How the pipeline is run: stock-stream instances (1 as {@code ./seckill run} starts it; 2 as the manifests run
     * it, each with its standby), {@code SECKILL_*} variables beyond the services' defaults (none unless asked), and
     * how long a SIGKILLed service stays down before it is started again (0: at once, as the harness always did; more:
     * as a supervisor's restart back-off, or a process on a host of its own, leaves the survivors the machine's cores).
     */
    record Shape(int streamInstances, Map<String, String> env, long restartAfterMs) {}

    private ChaosRun() {}

    /** One scenario; {@code cluster} is the run's Kafka cluster ({@code --brokers 3}), or null for the configured broker. */
    static Result run(
            Settings base,
            KafkaCluster cluster,
            String runName,
            ChaosScenario sc,
            Sale sale,
            Shape shape,
            long seed,
            PrintStream out)
            throws Exception {
        out.printf("%n-- %s: %s%n", sc.name(), sc.what());
        try (ChaosServers servers = ChaosServers.start(sc.owns(), cluster, out)) {
            Namespace ns = Namespace.create(servers.apply(base), runName + "-" + sc.name());
            try {
                return run(ns, servers, sc, sale, shape, seed, out);
            } finally {
                ns.deleteTopics();
                ns.deleteRedisKeys();
                ns.dropDatabase();
            }
        }
    }

    private static Result run(
            Namespace ns, ChaosServers servers, ChaosScenario sc, Sale sale, Shape shape, long seed, PrintStream out)
            throws Exception {
        Settings s = ns.settings();
        TopicProvisioner.ensure(s, new Topics(s.topicPrefix()));
        Path logs = Path.of(System.getenv().getOrDefault("SECKILL_HOME", ".seckill"), "logs", ns.name());
        String[] failure = {null};
        try (ServedStrategy pipeline = ServedStrategy.pipeline(s, logs, shape.env(), sc.reconciler());
                GatewayCalls calls = new GatewayCalls(pipeline.port())) {
            pipeline.start();
            StreamInstances.startMore(pipeline, s, shape.streamInstances() - 1, out);
            OpenSale open = Sales.started(Sales.GOODS, sale.stock(), Duration.ofHours(1), 1, "chaos-open");
            Sales.open(s, open.withBuckets(sale.buckets()), Duration.ofMinutes(2));
            out.printf("   namespace %s, logs in %s%n", ns.name(), logs);
            ProgressBar bar = new ProgressBar(sc.name(), sale.requests());
            Random random = new Random(seed);
            BuyerLoad[] load = new BuyerLoad[1];
            ChaosTarget target = new ChaosTarget(
                    pipeline, servers, s, Sales.GOODS, sale.stock(), random, logs, load, out, calls, shape);
            Runnable faults = () -> {
                try {
                    sc.fault().inject(target);
                } catch (Exception e) {
                    failure[0] = "the fault or its recovery failed: " + e.getMessage();
                }
            };
            load[0] = new BuyerLoad(
                            new BuyerLoad.Spec(
                                    pipeline.port(),
                                    Sales.GOODS,
                                    sale.requests(),
                                    sale.concurrency(),
                                    sale.users(),
                                    seed,
                                    10),
                            answered -> {
                                // the last answer: the buyers stop here, and a fault after it is felt by nobody
                                if (answered == sale.requests()) target.loadEnded(System.nanoTime());
                                bar.update(answered);
                            },
                            (int) (sale.stock() / 4 + random.nextInt((int) Math.max(1, sale.stock() / 4))),
                            faults)
                    .spreadAfterFault(SPREAD_AFTER_FAULT_MS);
            load[0].run();
            load[0].awaitFault();
            bar.finish(sale.requests());
            BuyersSide.print(load[0], target.pausesFrom(), out);
            return audit(s, sc, sale, target, failure[0], out);
        }
    }

    private static Result audit(
            Settings s, ChaosScenario sc, Sale sale, ChaosTarget target, String failure, PrintStream out)
            throws Exception {
        BuyerLoad load = target.load();
        Map<String, Long> told = Arrays.stream(load.outcome)
                .collect(Collectors.groupingBy(o -> o == null ? "none" : o, TreeMap::new, Collectors.counting()));
        out.printf("   buyers were told: %s%n", told);
        long successes = Arrays.stream(load.outcome).filter("SUCCESS"::equals).count();
        long answered = Arrays.stream(load.outcome)
                .filter(o -> o != null && !o.equals(BuyerLoad.NO_ANSWER) && !o.equals("PENDING"))
                .count();
        try (Connection c = Sales.connect(JdbcUrls.withDriverDefaults(s.dbUrl()), s.dbUser(), s.dbPassword())) {
            Sales.awaitOrders(c, successes);
            String broken = failure;
            SaleAudit invariants = SaleAudit.settled(
                    () -> SaleFacts.ofPipeline(s, c, Sales.GOODS).told(load));
            out.printf("   check: %s%n", invariants.what());
            for (String line : invariants.lines()) out.printf("   check: %s%n", line);
            if (broken == null && !invariants.ok()) broken = invariants.violations.get(0);
            // a fault that struck after the buyers' load (or that no later request felt) tested nothing of theirs
            String unmeasured = target.unmeasured();
            out.printf(
                    "   check: every fault struck while the buyers bought, its buyers' side measured: %s%n",
                    unmeasured == null ? "held" : "VIOLATED: " + unmeasured);
            if (broken == null) broken = unmeasured;
            for (ChaosTarget.NamedCheck check : target.checks()) {
                String violation = check.check().violation();
                out.printf(
                        "   check: %s: %s%n",
                        check.what().get(), violation == null ? "held" : "VIOLATED: " + violation);
                if (broken == null) broken = violation;
            }
            return new Result(
                    sc,
                    sale.requests(),
                    answered,
                    successes,
                    StrategyAudit.of(invariants.facts),
                    target.faults(),
                    target.recoveries(),
                    broken);
        }
    }
}
