package dev.seckill.infra.ops;

import dev.seckill.infra.harness.AnswerTimes;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Html;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.infra.harness.ToolSettings;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.infra.harness.stack.LocalStack;
import dev.seckill.infra.ops.report.GoodsReport;
import dev.seckill.infra.ops.report.ReportSource;
import dev.seckill.kit.config.Settings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * {@code ./seckill demo}: the write-up's experiment end to end on the real stack — a sale of 1,000 units,
 * 50,000 purchases from 500 concurrent HTTP clients over a buyer population with repeat buyers — then a report
 * of every invariant. Exits 1 when one is broken. Each run has its own namespace (topics, Redis keys, database).
 */
public final class DemoCommand {
    private DemoCommand() {}

    public static int run(Settings settings, Path home, Flags f, PrintStream stdout) throws Exception {
        ReportOutput json = ReportOutput.ofCommand("demo", f, stdout, System.err);
        return json.run(() -> run(settings, new LocalStack(settings, home, json.text()), f, json));
    }

    private static int run(Settings settings, LocalStack stack, Flags f, ReportOutput json) throws Exception {
        PrintStream out = json.text();
        long stock = f.getLong("stock");
        int buckets = (int) f.getLong("buckets");
        int requests = (int) f.getLong("requests");
        int concurrency = (int) f.getLong("concurrency");
        int users = (int) f.getLong("users", Math.max(1, requests / 2));
        long goods = f.getLong("goods");
        long seed = f.getLong("seed");
        int warmup = (int) f.getCount("warmup");
        int answer = (int) f.getCount("answer", requests);
        stack.up();

        String name = "demo-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Namespace ns = Namespace.create(settings, name);
        out.printf(
                "namespace  %s (topics %s*, Redis keys %s*, database %s)%n",
                name, ns.settings().topicPrefix(), ns.settings().redisPrefix(), ns.database());
        try (Pipeline p = new Pipeline(ns).start()) {
            try (OutcomeLog log = new OutcomeLog(ns.settings(), p.topics())) {
                if (warmup > 0) {
                    // JIT warm-up over the whole path (gateway, Kafka, Lua, outcomes) on another goods, which has no
                    // sale:
                    // every warm-up purchase is decided REJECTED no_sale and touches nothing of the sale measured
                    // below.
                    ProgressBar warm = new ProgressBar("warm-up", warmup);
                    HttpLoad.Result w =
                            HttpLoad.run(buyers(p, goods + 1, warmup, concurrency, users, seed + 1), warm::update);
                    warm.finish(warmup);
                    if (!Drain.awaitDecided(log, w.acceptedIds(), Duration.ofMinutes(3))) {
                        out.println("warm-up    the pipeline did not decide the warm-up requests in 3 minutes");
                    }
                }
                p.openSale(goods, stock, Duration.ofHours(1), 1, buckets);
                out.printf(
                        "sale       goods %d opened with %,d units (per-user limit 1%s)%s%n",
                        goods,
                        stock,
                        buckets > 1 ? ", in " + buckets + " buckets" : "",
                        warmup > 0 ? "; JIT warmed by " + warmup + " requests on goods " + (goods + 1) : "");
                out.printf(
                        "load       %,d purchases, %d concurrent clients, %,d buyers (seed %d)%n",
                        requests, concurrency, users, seed);
                ProgressBar sent = new ProgressBar("requests", requests);
                HttpLoad.Result load = HttpLoad.run(buyers(p, goods, requests, concurrency, users, seed), sent::update);
                sent.finish(requests);
                ProgressBar decided =
                        new ProgressBar("decided", load.acceptedIds().size());
                long drainStart = System.nanoTime();
                boolean drained =
                        Drain.await(p, log, goods, load.acceptedIds(), Duration.ofMinutes(5), decided::update);
                decided.finish(drained ? load.acceptedIds().size() : 0);
                double drainSeconds = (System.nanoTime() - drainStart) / 1e9;
                SaleAudit audit = SaleAudit.of(p, goods, load.acceptedIds(), log.snapshot());
                DemoReport report = DemoReport.of(load, audit, log.snapshot(), drained, drainSeconds);
                report.print(out);
                AnswerTimes answers = answer > 0
                        ? timeToAnswer(out, p, goods + 2, stock, buckets, answer, concurrency, users, seed, load)
                        : null;
                htmlReport(
                        out,
                        ns,
                        settings,
                        answers == null ? "" : answerSection(answers, goods + 2),
                        warmup > 0 ? goods + 1 : -1);
                json.put("namespace", name);
                report.put(json, answers);
                return report.ok() ? 0 : 1;
            }
        }
    }

    /** The demo's load: a closed loop of buyers {@code 1..users} through Vert.x's client, the accepted ids kept. */
    private static LoadSpec buyers(Pipeline p, long goods, int requests, int concurrency, int users, long seed) {
        return LoadSpec.closed(p.gatewayPort(), goods, requests, concurrency, users, seed, p::bearer)
                .via(LoadSpec.Generator.VERTX)
                .keepingIds();
    }

    /**
     * The sale's report as one HTML page with charts, next to the text report, and how to look at or remove the run.
     * The two sales only: the JIT warm-up's goods ({@code warmupGoods}, -1 for none) had no sale and is not one.
     */
    private static void htmlReport(PrintStream out, Namespace ns, Settings settings, String section, long warmupGoods) {
        Path file = Path.of(settings.get(ToolSettings.HOME), "reports", ns.name() + ".html")
                .toAbsolutePath();
        try {
            ReportCommand.write(
                    file,
                    "seckill demo " + ns.name(),
                    theSales(new ReportSource(ns.settings()).read(null, n -> {}), warmupGoods),
                    section);

            out.println("HTML report   " + file);
        } catch (Exception e) {
            out.println("HTML report   not written: " + e.getMessage());
        }
        out.println("look again    ./seckill report --namespace " + ns.name()
                + " [--html FILE]; ./seckill reconcile --namespace " + ns.name());
        out.println("replay it     ./seckill replay --namespace " + ns.name() + " --as rehearsal");
        out.println("remove it     ./seckill clean --namespace " + ns.name());
    }

    /** The goods of the report that were sales: all but the JIT warm-up's ({@code warmupGoods}; -1 for none). */
    static List<GoodsReport> theSales(List<GoodsReport> all, long warmupGoods) {
        return all.stream().filter(g -> g.goodsId() != warmupGoods).toList();
    }

    /**
     * Time to answer, the buyer's view: the same shape again on a second sale of the same stock, every request with
     * {@code Prefer: wait}, so a buyer holds its outcome in the answer; measured from when it sent the request. Printed
     * next to the accept latency of the run above (time to 202).
     */
    static AnswerTimes timeToAnswer(
            PrintStream out,
            Pipeline p,
            long goods,
            long stock,
            int buckets,
            int requests,
            int concurrency,
            int users,
            long seed,
            HttpLoad.Result accept)
            throws InterruptedException {
        p.openSale(goods, stock, Duration.ofHours(1), 1, buckets);
        ProgressBar bar = new ProgressBar("answers", requests);
        LoadSpec spec = LoadSpec.closed(p.gatewayPort(), goods, requests, concurrency, users, seed + 2, p::bearer)
                .buyers(100_000_000L, users)
                .waiting(WAIT_SECONDS);
        HttpLoad.Result r = HttpLoad.run(spec, bar::update);
        bar.finish(requests);
        AnswerTimes t = r.answerTimes(0);
        out.printf(
                "time to answer         %s   (request sent -> outcome held: Prefer: wait=%d, %,d requests, %d clients,%n",
                t.percentiles(), WAIT_SECONDS, requests, concurrency);
        out.printf(
                "                       a second sale of %,d units on goods %d; raw HTTP client; HTTP status %s)%n",
                stock, goods, r.byStatus());
        out.printf(
                "                       %s; answer/accept p50 ×%.1f, p99 ×%.1f%n",
                t.shares(),
                t.percentileMillis(50) / accept.percentileMillis(50),
                t.percentileMillis(99) / accept.percentileMillis(99));
        return t;
    }

    /** The buyer's time to answer on the page, beside the goods' own accept → decision (its section above). */
    static String answerSection(AnswerTimes t, long goods) {
        return "<section id=\"time-to-answer\"><h2>Time to answer, the buyer's view (goods " + goods + ")</h2><p>"
                + Html.escape("request sent → outcome held, Prefer: wait (measured by the clients): " + t.percentiles()
                        + "; " + t.shares())
                + "</p><p><a href=\"#goods-" + goods + "\">accept → decision of the same purchases</a>"
                + " (measured by the pipeline) is in that goods' section.</p></section>";
    }

    private static final int WAIT_SECONDS = 10;
}
