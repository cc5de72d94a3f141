package dev.seckill.infra.chaos;

import dev.seckill.contracts.Topics;
import dev.seckill.infra.bench.ColdStartBenchmark;
import dev.seckill.infra.cli.ProgressBar;
import dev.seckill.infra.drill.Namespace;
import dev.seckill.infra.strategies.BuyerLoad;
import dev.seckill.infra.strategies.ServedStrategy;
import dev.seckill.infra.strategies.StrategyAudit;
import dev.seckill.infra.strategies.StrategyRun;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.UnifiedJedis;

/**
 * One chaos scenario against the pipeline as three processes (gateway, stock-stream, order-writer) in a namespace of
 * its own: a live sale with more buyers than stock, the scenario's SIGKILLs at seeded random moments while buyers keep
 * buying (and retrying what got no answer), the writers drained, then the invariants read from the database against
 * what every buyer was told — never from the services' own counters.
 */
final class ChaosRun {
    /** What one scenario left. */
    record Result(
            ChaosScenario scenario,
            int requests,
            long answered,
            long successes,
            StrategyAudit audit,
            List<Long> recoveries,
            String failure) {
        boolean passed() {
            return failure == null
                    && audit.oversold() == 0
                    && audit.duplicateBuyers() == 0
                    && audit.lost() == 0
                    && audit.falseDuplicates() == 0
                    && answered == requests;
        }
    }

    /** The sale: stock, purchases, buyers at once, distinct buyers. */
    record Sale(long stock, int requests, int concurrency, int users) {}

    private ChaosRun() {}

    static Result run(Settings base, String runName, ChaosScenario sc, Sale sale, long seed, PrintStream out)
            throws Exception {
        Namespace ns = Namespace.create(base, runName + "-" + sc.name());
        Settings s = ns.settings();
        TopicProvisioner.ensure(s.kafkaBootstrap(), new Topics(s.topicPrefix()), TopicProvisioner.DEFAULT_PARTITIONS);
        Path logs = Path.of(System.getenv().getOrDefault("SECKILL_HOME", ".seckill"), "logs", ns.name());
        List<Long> recoveries = new ArrayList<>();
        String[] failure = {null};
        try (ServedStrategy pipeline = ServedStrategy.pipeline(s, logs, ServedStrategy.WARMUP_OFF)) {
            pipeline.start();
            try (UnifiedJedis redis = RedisConnections.open(s)) {
                ColdStartBenchmark.openSale(s, new Topics(s.topicPrefix()), redis, StrategyRun.GOODS, sale.stock());
            }
            out.printf("%n-- %s: %s (namespace %s)%n", sc.name(), sc.what(), ns.name());
            ProgressBar bar = new ProgressBar(out, sc.name(), sale.requests());
            Random random = new Random(seed);
            BuyerLoad[] load = new BuyerLoad[1];
            Runnable faults = () -> {
                try {
                    for (int k = 0; k < sc.kills() && !load[0].finished(); k++) {
                        if (k > 0) TimeUnit.MILLISECONDS.sleep(500 + random.nextInt(2_500)); // the next fault's moment
                        recoveries.add(pipeline.killAndRestart(sc.part()));
                    }
                } catch (Exception e) {
                    failure[0] = "the restart failed: " + e.getMessage();
                }
            };
            load[0] = new BuyerLoad(
                    new BuyerLoad.Spec(
                            pipeline.port(),
                            StrategyRun.GOODS,
                            sale.requests(),
                            sale.concurrency(),
                            sale.users(),
                            seed,
                            10),
                    bar::update,
                    (int) (sale.stock() / 4 + random.nextInt((int) Math.max(1, sale.stock() / 4))),
                    faults);
            load[0].run();
            load[0].awaitFault();
            bar.finish(sale.requests());
            return audit(s, ns, sc, sale, load[0], recoveries, failure[0]);
        } finally {
            ns.deleteTopics();
            ns.deleteRedisKeys();
            ns.dropDatabase();
        }
    }

    private static Result audit(
            Settings s,
            Namespace ns,
            ChaosScenario sc,
            Sale sale,
            BuyerLoad load,
            List<Long> recoveries,
            String failure)
            throws Exception {
        long successes = Arrays.stream(load.outcome).filter("SUCCESS"::equals).count();
        long answered = Arrays.stream(load.outcome)
                .filter(o -> o != null && !o.equals(BuyerLoad.NO_ANSWER))
                .count();
        try (Connection c = StrategyAudit.connect(JdbcUrls.withDriverDefaults(s.dbUrl()), s.dbUser(), s.dbPassword())) {
            StrategyRun.drain(c, successes);
            return new Result(
                    sc,
                    sale.requests(),
                    answered,
                    successes,
                    StrategyAudit.of(c, StrategyRun.GOODS, sale.stock(), load),
                    recoveries,
                    failure);
        }
    }
}
