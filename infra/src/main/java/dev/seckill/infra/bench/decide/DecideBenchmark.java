package dev.seckill.infra.bench.decide;

import dev.seckill.contracts.Topics;
import dev.seckill.infra.bench.BenchTracing;
import dev.seckill.infra.bench.RawLua;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.stock.StockStreamApp;
import dev.seckill.stock.StockStreamSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code ./seckill bench decide}: preloads N purchase commands, then times stock-stream (exactly_once_v2) deciding
 * them all, and in the same run measures the raw purchase Lua against the same Redis, unpipelined and pipelined. Two
 * paths, each with its ratios: the sale as given (with the default stock of 1,000 nearly every purchase is answered in
 * memory once the goods is sold out) and, separately, a run where the stock covers every purchase so that each one is
 * decided by Lua.
 */
public final class DecideBenchmark {
    private DecideBenchmark() {}

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        try (AutoCloseable tracing = BenchTracing.startIf(f, base, "stock-stream", o.text())) {
            return measure(base, f, o);
        }
    }

    private static int measure(Settings base, Flags f, ReportOutput o) throws Exception {
        PrintStream out = o.text();
        int n = (int) f.getLong("commands");
        int goodsCount = (int) f.getLong("goods");
        long stock = f.getLong("stock");
        int rawOps = (int) f.getLong("raw");
        int warmup = (int) f.getCount("warmup");
        int luaCommands = (int) f.getCount("lua-commands");
        boolean luaRun = luaCommands > 0 && stock * goodsCount < n;
        String name = "bench-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Namespace ns = Namespace.create(base, name);
        Settings s = streamSettings(ns, f);
        out.printf(
                "bench decide: %,d purchases over %d goods (stock %,d each)%s, %s threads, commit %s ms, namespace %s%n",
                n,
                goodsCount,
                stock,
                luaRun ? String.format(", then %,d with stock for all (every one through Lua)", luaCommands) : "",
                s.get(StockStreamSettings.THREADS),
                s.get(StockStreamSettings.COMMIT_INTERVAL_MS),
                name);
        // the warm-up sells half its purchases by Lua when the all-Lua run follows, so that path is compiled too
        long warmupStock = luaRun ? Math.max(stock, warmup / (2L * goodsCount)) : stock;
        if (warmup > 0) warmUp(base, name, f, warmup, goodsCount, warmupStock, out);
        double rawPlain;
        double rawPipelined;
        double rawBatched;
        try (UnifiedJedis redis = RedisConnections.open(s)) {
            rawPlain = RawLua.opsPerSecond(redis, s.redisPrefix() + "raw:", rawOps, false);
            rawPipelined = RawLua.opsPerSecond(redis, s.redisPrefix() + "raw-p:", rawOps, true);
            rawBatched = RawLua.batchedOpsPerSecond(redis, s.redisPrefix() + "raw-b:", rawOps);
        }
        out.printf(
                "raw Lua    %,.0f ops/s unpipelined (1 connection), %,.0f ops/s pipelined (batches of 32), %,.0f decisions/s"
                        + " by the batch script (64 per call): the one-goods ceiling of this Redis%n",
                rawPlain, rawPipelined, rawBatched);
        DecideRun.Measured sale = DecideRun.measure(s, n, goodsCount, stock, "deciding", out);
        int deleted = ns.deleteTopics();
        ns.deleteRedisKeys();
        DecideRun.Measured lua = null;
        if (luaRun) {
            Namespace luaNs = Namespace.create(base, name + "-lua");
            // one unit more than the purchases: none of them is the sell-out (whose one-off snapshot of every buyer
            // belongs to the sale path above), so this is the Lua path alone
            lua = DecideRun.measure(
                    streamSettings(luaNs, f), luaCommands, goodsCount, luaCommands + 1L, "all Lua", out);
            deleted += luaNs.deleteTopics();
            luaNs.deleteRedisKeys();
        }
        out.printf("%n== bench decide ==%n");
        print(out, "the sale as given", n, sale, rawPlain, rawPipelined);
        if (lua != null) print(out, "every purchase through Lua", luaCommands, lua, rawPlain, rawPipelined);
        out.printf(
                warmup > 0
                        ? "warm-up             %,d purchases decided by a first app instance on its own namespace before this run%n"
                        : "warm-up             none (--warmup %d): the figure includes the JIT compiling the app%n",
                warmup);
        out.printf("cleaned up          %d topics of this run deleted from the broker, and its Redis keys%n", deleted);
        Map<String, Double> raw = new java.util.LinkedHashMap<>();
        raw.put("unpipelined", rawPlain);
        raw.put("pipelined", rawPipelined);
        raw.put("batchScript", rawBatched);
        o.put("rawLua", raw);
        o.put("saleAsGiven", figures(n, sale, rawPlain, rawPipelined));
        if (lua != null) o.put("everyPurchaseThroughLua", figures(luaCommands, lua, rawPlain, rawPipelined));
        return 0;
    }

    /** A run's figures for {@code --json}: what {@link #print} prints, by name. */
    private static Map<String, Object> figures(int n, DecideRun.Measured m, double rawPlain, double rawPipelined) {
        Map<String, Object> figures = new java.util.LinkedHashMap<>();
        figures.put("commands", n);
        figures.put("run", m);
        figures.put("ofRawLuaUnpipelined", m.steady() / rawPlain);
        figures.put("ofRawLuaPipelined", m.steady() / rawPipelined);
        return figures;
    }

    private static void print(
            PrintStream out, String path, int n, DecideRun.Measured m, double rawPlain, double rawPipelined) {
        out.printf("-- %s%n", path);
        out.printf(
                "decided             %,d commands = %,.0f decisions/s with start-up, %,.0f steady (first commit to last),"
                        + " EOS on%n",
                n, m.rate(), m.steady());
        out.printf(
                "short-circuited     %,.0f purchases answered in memory (sold out), %,.0f Lua calls%n",
                m.shortCircuited(), m.luaCalls());
        out.printf(
                "ratios (steady)     ×%.2f raw Lua unpipelined (%,.0f ops/s), ×%.2f raw Lua pipelined (%,.0f ops/s)%n",
                m.steady() / rawPlain, rawPlain, m.steady() / rawPipelined, rawPipelined);
        out.printf(
                "batches             %,.0f decided, %.0f commands each on average; waiting for Redis %.0f%% of the run"
                        + " (%.1f s)%n",
                m.batches(), m.meanBatch(), 100 * m.redisWaitShare(), m.redisWaitSeconds());
        out.printf("peak RSS            %,d MB (this JVM: stream app + benchmark)%n", m.peakRss() / (1024 * 1024));
    }

    /**
     * The same pipeline on a namespace of its own, run to the end and closed before the measured run: the JIT compiles
     * Kafka Streams', the producer's and the decision's hot code (on two cores its compiler threads otherwise take
     * most of a core through the first ~20 s), so the figure is that of a service that has been up for a while —
     * like the gateway benchmark's warm-up. With the all-Lua run after it, half its purchases are sold by Lua (a
     * SUCCESS writes the ledger, fold and holdings the sold-out path never touches: C2 took 68% of a core through
     * the all-Lua run when the warm-up had only compiled the sold-out path). Its topics are deleted afterwards.
     */
    static void warmUp(Settings base, String name, Flags f, int n, int goodsCount, long stock, PrintStream out)
            throws Exception {
        Namespace ns = Namespace.create(base, name + "-warmup");
        Settings s = streamSettings(ns, f);
        Topics topics = new Topics(s.topicPrefix());
        TopicProvisioner.ensure(s, topics);
        DecideRun.preload(s, topics, n, goodsCount, stock, out);
        ProgressBar bar = new ProgressBar("warm-up", n + goodsCount);
        try (StockStreamApp app = new StockStreamApp(s, new SimpleMeterRegistry()).start()) {
            DecideRun.awaitCommitted(s, topics, n + goodsCount, bar, Duration.ofMinutes(20));
        }
        ns.deleteTopics();
        ns.deleteRedisKeys();
    }

    private static Settings streamSettings(Namespace ns, Flags f) {
        // the commit interval is the app's default (StockStreamApp) unless --commit-ms says otherwise
        Settings s = ns.settings().and(Map.of(StockStreamSettings.THREADS.name(), f.get("threads")));
        return f.has("commit-ms")
                ? s.and(Map.of(StockStreamSettings.COMMIT_INTERVAL_MS.name(), f.get("commit-ms", "")))
                : s;
    }
}
