package dev.seckill.infra.bench.strategies;

import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.ServedStrategy;
import dev.seckill.infra.harness.buyers.Answer;
import dev.seckill.infra.harness.buyers.BuyerLoad;
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
     * The warm-up sale has a unit for every other buyer: it sells out half-way, so its purchases take both the path of a
     * sale's first second (deduct, order, outcome) and the sold-out answer that most of a sale's buyers get — a sale of
     * the measured one's 1,000 units sent ~96% of its purchases to the sold-out answer and warmed little else.
     */
    static long stock(StrategyRun.Workload w) {
        return Math.max(w.stock(), Math.min(w.warmup(), w.users()) / 2);
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
        ProgressBar bar = new ProgressBar("warm-up", w.warmup());
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
        long orders;
        try (Connection c = Sales.connect(JdbcUrls.withDriverDefaults(s.dbUrl()), s.dbUser(), s.dbPassword())) {
            orders = Sales.awaitOrders(c, GOODS, sold);
        }
        long answered = Arrays.stream(load.outcome)
                .filter(o -> o != null && !o.equals(BuyerLoad.NO_ANSWER))
                .count();
        out.printf(
                "warm-up            %,.0f answers/s on goods %d (%,d sold, %,d of their orders written)%n",
                answered / (load.elapsedNanos / 1e9), GOODS, sold, orders);
    }
}
