package dev.seckill.infra.bench.fairness;

import dev.seckill.contracts.fair.Fairness;
import dev.seckill.infra.bench.TextTable;
import dev.seckill.infra.harness.FairSplit;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.stock.StockStreamSettings;
import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * {@code ./seckill bench fairness}: who wins a sale's opening. Two sales, each run first come first served and then as
 * a lottery in the same run: two equal groups of buyers, one {@code --delay-ms} farther away; then {@code --bots}
 * buyers sending {@code --bot-requests} requestIds each at the opening against people sending one, later. Prints each
 * group's wins and the probability of that split when every buyer had the same chance ({@link FairSplit}), whether
 * the draw checks out from the topics, and how long the buyers waited for their answer once it could be given.
 */
public final class FairnessBenchmark {
    private FairnessBenchmark() {}

    /**
     * Flags under which the verdict could not fail: units for every buyer of a sale (everyone wins, so any draw splits
     * evenly), or no bots (the second sale has one group to compare).
     */
    static void refuseVacuous(int buyers, long units, int bots) {
        if (buyers < 1) throw new Flags.UsageError("--buyers must be at least 1, got " + buyers);
        if (bots < 1)
            throw new Flags.UsageError(
                    "--bots must be at least 1: with none the second sale has no group to compare (not tested)");
        long fewest = Math.min(2L * buyers, (long) bots + buyers);
        if (units < 1 || units >= fewest)
            throw new Flags.UsageError("--units must be from 1 to " + (fewest - 1) + " (fewer than a sale's " + fewest
                    + " buyers), got " + units + ": with a unit for everyone every draw splits evenly: fairness"
                    + " not tested");
    }

    /** The values of the flags this benchmark reads by name, refused before anything starts. */
    public static void refuseBadFlags(Flags f) {
        refuseVacuous((int) f.getLong("buyers"), f.getLong("units"), (int) f.getLong("bots"));
        for (String positive : new String[] {"delay-ms", "bot-requests", "window-ms", "allowance-ms"})
            f.getLong(positive); // each refused below 1 as it is read
    }

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        PrintStream out = o.text();
        int buyers = (int) f.getLong("buyers");
        long units = f.getLong("units");
        long delay = f.getLong("delay-ms");
        int bots = (int) f.getLong("bots");
        int botRequests = (int) f.getLong("bot-requests");
        long window = f.getLong("window-ms");
        long allowance = f.getLong("allowance-ms");
        refuseVacuous(buyers, units, bots);
        String name = "bench-fair-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Namespace ns = Namespace.create(
                base.and(Map.of(
                        StockStreamSettings.DRAW_ALLOWANCE_MS.name(),
                        Long.toString(allowance),
                        "gateway.port",
                        "0",
                        "gateway.metrics.port",
                        "0")),
                name);
        out.printf(
                "bench fairness: %,d units; %,d + %,d buyers, one group %d ms farther; then %,d bots × %d requestIds"
                        + " at the opening against %,d people %d ms later; lottery window %,d ms + %,d ms allowance;"
                        + " namespace %s%n",
                units, buyers, buyers, delay, bots, botRequests, buyers, delay, window, allowance, name);
        List<FairSale.Group> groups = List.of(
                new FairSale.Group("near", buyers, 1, 0, 1), new FairSale.Group("far", buyers, 1, delay, 1 + buyers));
        List<FairSale.Group> crowd = List.of(
                new FairSale.Group("bots", bots, botRequests, 0, 1_000_001),
                new FairSale.Group("people", buyers, 1, delay, 2_000_001));
        List<String[]> rows = new ArrayList<>();
        List<Map<String, Object>> documented = new ArrayList<>();
        boolean fair = true;
        try (Pipeline p = new Pipeline(ns).start();
                OutcomeLog log = new OutcomeLog(ns.settings(), p.topics());
                KafkaProducer<String, byte[]> producer = ReliableProducers.create(ns.settings())) {
            long goods = 1;
            for (List<FairSale.Group> sale : List.of(groups, crowd)) {
                for (Fairness mode : List.of(Fairness.FCFS, Fairness.LOTTERY)) {
                    out.printf(
                            "  %s, %s ...%n",
                            sale.get(0).name() + " vs " + sale.get(1).name(), mode.wire());
                    FairSale.Result r = FairSale.run(
                            p, ns.settings(), log, producer, goods++, units, mode, window, allowance, sale);
                    rows.add(FairnessTable.row(sale, r));
                    documented.add(FairnessTable.document(sale, r));
                    if (mode == Fairness.LOTTERY) fair &= FairnessTable.fair(sale, r);
                }
            }
        } finally {
            new Namespaces(base).clean(name);
        }
        out.printf("%n== bench fairness ==%n");
        TextTable table = FairnessTable.of(rows);
        out.print(table.text());
        out.printf(
                "%nP(split | fair): the probability of a split this far from even if every buyer had one equal chance"
                        + " (hypergeometric, two-sided); under a lottery it should be inside the 99%% interval, under"
                        + " first come first served the nearer group's share shows the race.%n");
        out.printf(
                "the lottery's splits are %s%n",
                fair
                        ? "all within the 99% interval of a fair draw; each draw verified from the topics and ranked"
                                + " every buyer sent"
                        : "NOT all fair (a split outside the interval, a draw that does not check out, or one that"
                                + " did not rank every buyer sent)");
        o.put("sales", documented).put("fair", fair);
        return fair ? 0 : 1;
    }
}
