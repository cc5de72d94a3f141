package dev.seckill.infra.strategies;

import dev.seckill.infra.cli.ProgressBar;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import java.io.PrintStream;
import java.sql.Connection;
import java.util.Arrays;

/**
 * The sale each strategy serves before the measured one, on a goods of its own in the same namespace: the same
 * shape, another seed, and a unit for every buyer.
 */
final class StrategyWarmup {
    /** The goods of the warm-up sale. */
    static final long GOODS = 2001;

    private StrategyWarmup() {}

    /**
     * The warm-up sale has a unit for every buyer: none of its purchases is answered sold out at the door, so all of them
     * take the path the measured sale's first second takes (deduct, order, outcome), not only the sold-out answer.
     */
    static long stock(StrategyRun.Workload w) {
        return Math.max(w.stock(), Math.min(w.warmup(), w.users()));
    }

    /**
     * Serves the warm-up sale through the strategy's processes, then waits until its orders are written: no strategy is
     * measured on a cold JVM (the pipeline's services warm themselves before ready, the baselines do not; and even a
     * warmed JVM's C2 compiler is still busy for minutes on two cores — docs/performance.md, "Time to answer"), and none
     * with an asynchronous writer still busy with the warm-up's orders.
     */
    static void run(Settings s, ServedStrategy served, String strategy, StrategyRun.Workload w, PrintStream out)
            throws Exception {
        if (w.warmup() <= 0) return;
        ProgressBar bar = new ProgressBar(out, "warm-up", w.warmup());
        BuyerLoad load = new BuyerLoad(
                        new BuyerLoad.Spec(
                                served.port(),
                                GOODS,
                                w.warmup(),
                                w.concurrency(),
                                w.users(),
                                w.seed() + 1,
                                strategy.equals(StrategyRun.PIPELINE) ? 10 : 0),
                        bar::update,
                        Integer.MAX_VALUE,
                        null)
                .run();
        bar.finish(w.warmup());
        long sold = Arrays.stream(load.outcome)
                .filter(Answer.SUCCESS.name()::equals)
                .count();
        try (Connection c = StrategyAudit.connect(JdbcUrls.withDriverDefaults(s.dbUrl()), s.dbUser(), s.dbPassword())) {
            StrategyRun.drain(c, GOODS, sold);
        }
        out.printf(
                "warm-up            %,.0f answers/s on goods %d (%,d sold, their orders written)%n",
                w.warmup() / (load.elapsedNanos / 1e9), GOODS, sold);
    }
}
