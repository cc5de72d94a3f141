package dev.seckill.infra.bench.strategies;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.infra.harness.buyers.Answer;
import dev.seckill.infra.harness.buyers.BuyerLoad;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * {@code ./seckill bench strategies}: the write-up's comparison table, filled. The same sale (1,000 units, 50,000
 * purchases from 500 concurrent buyers over 25,000 buyers, one per buyer) against the same MariaDB and Redis, served
 * over HTTP by the same framework and driven by the same load generator, through each strategy in turn; then the
 * same again with the serving processes SIGKILLed once mid-sale and restarted. One table, ratios to this pipeline, and
 * an HTML page with the charts.
 */
public final class StrategiesBenchmark {
    static final List<String> ALL = List.of("pessimistic", "optimistic", "sync", StrategyRun.PIPELINE);

    private StrategiesBenchmark() {}

    /** The generator against a server that answers every purchase at once, twice (the second is the figure). */
    static double generatorCeiling(StrategyRun.Workload w) throws Exception {
        try (StrategyServer nothing = new StrategyServer((goods, user) -> Answer.SOLD_OUT, 0)) {
            double perSecond = 0;
            for (int round = 0; round < 2; round++) {
                BuyerLoad l = new BuyerLoad(
                                new BuyerLoad.Spec(nothing.port(), 1, w.requests(), w.concurrency(), w.users(), 1, 0),
                                done -> {},
                                Integer.MAX_VALUE,
                                null)
                        .run();
                perSecond = w.requests() / (l.elapsedNanos / 1e9);
            }
            return perSecond;
        }
    }

    /** The values of the flags this benchmark reads by name, refused before anything starts. */
    public static void refuseBadFlags(Settings settings, Flags f) {
        // a goods has at most one bucket per partition of the topics the benchmark creates
        int most = Math.min(OpenSale.MAX_BUCKETS, settings.get(SharedSettings.TOPIC_PARTITIONS));
        long buckets = f.getLong("buckets");
        if (buckets < 1 || buckets > most) throw new Flags.UsageError("--buckets is 1.." + most);
        for (String st : f.get("strategies", String.join(",", ALL)).split(","))
            if (!Set.copyOf(ALL).contains(st))
                throw new Flags.UsageError("--strategies takes " + String.join(",", ALL) + "; not '" + st + "'");
    }

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        refuseBadFlags(base, f);
        PrintStream out = o.text();
        StrategyRun.Workload w = new StrategyRun.Workload(
                f.getLong("stock"),
                (int) f.getLong("requests"),
                (int) f.getLong("concurrency"),
                (int) f.getLong("users"),
                f.getLong("seed"),
                (int) f.getCount("warmup", f.getLong("requests")),
                (int) f.getLong("buckets"));
        List<String> strategies =
                Arrays.asList(f.get("strategies", String.join(",", ALL)).split(","));
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        out.printf(
                "bench strategies: a sale of %,d units, %,d purchases from %d concurrent buyers over %,d buyers (one unit"
                        + " each), through %s%s; each strategy's processes fresh, its own database, Redis keys and"
                        + " topics%s%n",
                w.stock(),
                w.requests(),
                w.concurrency(),
                w.users(),
                String.join(", ", strategies),
                w.buckets() > 1 ? " (the pipeline's sale in " + w.buckets() + " stock buckets)" : "",
                w.warmup() > 0
                        ? String.format(
                                ", and first a warm-up sale of %,d purchases (%,d units) on another goods",
                                w.warmup(), StrategyWarmup.stock(w))
                        : "; no warm-up (--warmup 0)");
        double ceiling = generatorCeiling(w);
        out.printf(
                "load generator     %,.0f answers/s against a server in this JVM that answers at once (its ceiling here,"
                        + " and its warm-up, so the first strategy is not measured with a cold client)%n",
                ceiling);
        List<StrategyRun.Result> normal = new ArrayList<>();
        for (String st : strategies) normal.add(StrategyRun.run(base, "strat-" + stamp, st, false, w, out));
        List<StrategyRun.Result> faulted = new ArrayList<>();
        if (!f.has("no-fault"))
            for (String st : strategies) faulted.add(StrategyRun.run(base, "strat-" + stamp, st, true, w, out));
        out.printf(
                "%n== bench strategies: %,d units, %,d purchases, %d concurrent buyers ==%n",
                w.stock(), w.requests(), w.concurrency());
        StrategyTable.print(out, normal, "normal run");
        if (!faulted.isEmpty())
            StrategyTable.print(out, faulted, "the serving processes SIGKILLed once mid-sale, then restarted");
        Path html = Path.of(f.get(
                "html",
                Path.of(
                                System.getenv().getOrDefault("SECKILL_HOME", ".seckill"),
                                "reports",
                                "strategies-" + stamp + ".html")
                        .toString()));
        Files.createDirectories(html.toAbsolutePath().getParent());
        Files.writeString(html, StrategyTable.html(w, normal, faulted));
        out.printf("charts             %s%n", html.toAbsolutePath());
        boolean unsafe = normal.stream()
                        .anyMatch(r -> r.audit().oversold() > 0 || r.audit().duplicateBuyers() > 0)
                || faulted.stream()
                        .filter(r -> r.strategy().equals(StrategyRun.PIPELINE))
                        .anyMatch(r -> r.audit().oversold() > 0
                                || r.audit().duplicateBuyers() > 0
                                || r.audit().lost() > 0
                                || r.audit().falseDuplicates() > 0);
        out.printf(
                "verdict            %s%n",
                unsafe
                        ? "VIOLATION: a strategy that claims safety oversold, sold twice or lost a confirmed sale"
                        : "every safety claim held");
        o.put("workload", w)
                .put("generatorCeilingPerSecond", ceiling)
                .put("normal", normal)
                .put("faulted", faulted)
                .put("safe", !unsafe);
        return unsafe ? 1 : 0;
    }
}
