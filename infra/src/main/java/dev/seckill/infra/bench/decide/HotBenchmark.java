package dev.seckill.infra.bench.decide;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.infra.bench.RawLua;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.stock.StockStreamApp;
import dev.seckill.stock.StockStreamSettings;
import dev.seckill.stock.bucket.HopSeal;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code ./seckill bench hot}: one goods, every purchase through Lua, decided in 1, 2 and 4 buckets (each count on a
 * namespace of its own, the same purchases preloaded, then stock-stream started and timed until every purchase has its
 * committed outcome), next to raw pipelined Lua against the same Redis in the same run. The stock covers every
 * purchase with a tenth to spare, spread over the buckets as the open's shares: a bucket whose buyers outnumber its
 * share borrows (docs/invariants.md, "Stock buckets"). A bucketed run's purchases go as {@code --routes} says: each
 * straight to the partition that claims it, as the gateway sends them ({@code claim}: ids of the clients' choosing;
 * {@code own}: ids the gateway issues, each claimed where its buyer buys), or keyed to the goods' home ({@code home},
 * {@link HotPreload}).
 */
public final class HotBenchmark {

    private HotBenchmark() {}

    /**
     * One bucket count's run; {@code streamCpuUs}: the stream threads' CPU per purchase (every task of the goods: the
     * home's routing and claims, every bucket's decisions, their Kafka work), in µs.
     */
    record Measured(int buckets, HotPreload.Route route, double rate, double steady, long sold, double streamCpuUs) {}

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        PrintStream out = o.text();
        int n = (int) f.getCount("commands");
        int warmup = (int) f.getCount("warmup");
        List<Integer> counts = new ArrayList<>();
        refuseBadFlags(base, f);
        for (String b : f.get("buckets").split(",")) counts.add(Integer.parseInt(b.trim()));
        String name = "hot-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        out.printf(
                "bench hot: %,d purchases of one goods, every one through Lua, in %s buckets, %s stream threads%n",
                n, counts, f.get("threads"));
        if (warmup > 0)
            measure(base, name + "-warmup", f, warmup, counts.get(counts.size() - 1), HotPreload.Route.HOME);
        double rawPipelined;
        try (UnifiedJedis redis = RedisConnections.open(base)) {
            rawPipelined = RawLua.opsPerSecond(redis, base.redisPrefix() + name + ":raw-p:", 200_000, true);
        }
        List<HotPreload.Route> routes = new ArrayList<>();
        for (String r : f.get("routes").split(",")) routes.add(route(r.trim()));
        List<Measured> runs = new ArrayList<>();
        for (int buckets : counts)
            for (HotPreload.Route route : buckets == 1 ? List.of(HotPreload.Route.HOME) : routes)
                runs.add(
                        measure(base, name + "-b" + buckets + "-" + route.name().toLowerCase(), f, n, buckets, route));
        out.printf("%n== bench hot ==%n");
        out.printf(
                "raw Lua pipelined   %,.0f ops/s (batches of 32, one connection): one Redis' ceiling for one key%n",
                rawPipelined);
        out.printf(
                "%-8s %-6s %14s %14s %12s %12s %10s %16s%n",
                "buckets", "route", "decisions/s", "steady", "×1 bucket", "×raw Lua", "sold", "stream CPU µs/p");
        double one = runs.get(0).steady();
        for (Measured m : runs)
            out.printf(
                    "%-8d %-6s %,14.0f %,14.0f %12.2f %12.2f %,10d %16.1f%n",
                    m.buckets(),
                    m.buckets() == 1 ? "-" : m.route().name().toLowerCase(),
                    m.rate(),
                    m.steady(),
                    m.steady() / one,
                    m.steady() / rawPipelined,
                    m.sold(),
                    m.streamCpuUs());
        List<Double> projected = projection(runs, out);
        out.printf(
                "warm-up             %,d purchases in %d buckets on a namespace of their own before the runs%n",
                warmup, counts.get(counts.size() - 1));
        o.put("rawLuaPipelinedOpsPerSecond", rawPipelined);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Measured m = runs.get(i);
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            row.put("buckets", m.buckets());
            row.put("route", m.buckets() == 1 ? null : m.route().name().toLowerCase());
            row.put("decisionsPerSecond", m.rate());
            row.put("steadyDecisionsPerSecond", m.steady());
            row.put("ofOneBucket", m.steady() / one);
            row.put("ofRawLuaPipelined", m.steady() / rawPipelined);
            row.put("sold", m.sold());
            row.put("streamCpuMicrosPerPurchase", m.streamCpuUs());
            row.put("projectedOfOneBucket", projected.get(i));
            rows.add(row);
        }
        o.put("runs", rows);
        return 0;
    }

    /** The values of the flags this benchmark reads by name, refused before anything starts. */
    public static void refuseBadFlags(Settings settings, Flags f) {
        // a goods has at most one bucket per partition of the topics the benchmark creates
        int most = Math.min(OpenSale.MAX_BUCKETS, settings.get(SharedSettings.TOPIC_PARTITIONS));
        for (String b : f.get("buckets").split(","))
            if (!b.trim().matches("[0-9]{1,3}") || Integer.parseInt(b.trim()) < 1 || Integer.parseInt(b.trim()) > most)
                throw new Flags.UsageError("--buckets lists bucket counts of 1.." + most + ", got '" + b.trim() + "'");
        for (String r : f.get("routes").split(",")) route(r.trim());
    }

    private static HotPreload.Route route(String name) {
        for (HotPreload.Route r : HotPreload.Route.values()) if (r.name().equalsIgnoreCase(name)) return r;
        throw new Flags.UsageError("--routes takes own, claim and home, got '" + name + "'");
    }

    /** Preloads the open and {@code n} purchases on a namespace of its own, starts the stream, times the outcomes. */
    private static Measured measure(Settings base, String name, Flags f, int n, int buckets, HotPreload.Route route)
            throws Exception {
        Namespace ns = Namespace.create(base, name);
        try {
            Settings s = ns.settings()
                    .and(Map.of(
                            StockStreamSettings.THREADS.name(), f.get("threads"),
                            StockStreamSettings.HOP_SECRET.name(), HopSeal.freshKey()));
            Topics topics = new Topics(s.topicPrefix());
            TopicProvisioner.ensure(s, topics);
            HotPreload.preload(s, topics, n, buckets, route);
            ProgressBar bar = new ProgressBar(buckets + " bucket" + (buckets == 1 ? "" : "s"), n);
            long t0 = System.nanoTime();
            try (StockStreamApp app = new StockStreamApp(s, new SimpleMeterRegistry()).start();
                    KafkaConsumer<String, byte[]> outcomes = outcomeReader(s, topics)) {
                long first = 0;
                long seen = 0;
                long sold = 0;
                long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
                while (seen < n) {
                    if (System.nanoTime() > deadline)
                        throw new IllegalStateException("the stream answered " + seen + " of " + n + " in 20 minutes");
                    for (ConsumerRecord<String, byte[]> r : outcomes.poll(Duration.ofMillis(100))) {
                        if (first == 0) first = System.nanoTime();
                        seen++;
                        if (r.topic().equals(topics.outcome(dev.seckill.contracts.outcome.OutcomeKind.SUCCESS))) sold++;
                    }
                    bar.update(seen);
                }
                bar.finish(n);
                long end = System.nanoTime();
                double cpuUs = streamThreadsCpuNanos() / 1e3 / n;
                return new Measured(buckets, route, n / ((end - t0) / 1e9), n / ((end - first) / 1e9), sold, cpuUs);
            }
        } finally {
            ns.deleteTopics();
            ns.deleteRedisKeys();
        }
    }

    /**
     * The paper projection of docs/performance.md, with a core per stream thread and Redis and the brokers not the
     * limit. One bucket's serial work is its thread's ({@code c1} µs per purchase). Purchases sent home: the home reads,
     * claims and sends on every one (the extra CPU per purchase measured here, {@code cN - c1}) beside deciding its own
     * share, so N buckets decide at most min(N / c1, 1 / (cN - c1 + c1 / N)) per µs. Purchases sent to their claims:
     * every bucket does 1/N of the claims and 1/N of the decisions, so N buckets decide N / cN per µs. Returns each
     * run's projected ratio to one bucket (1 for one bucket).
     */
    private static List<Double> projection(List<Measured> runs, PrintStream out) {
        double c1 = runs.get(0).streamCpuUs();
        List<Double> ratios = new ArrayList<>();
        for (Measured m : runs) {
            if (m.buckets() == 1) {
                ratios.add(1.0);
                continue;
            }
            double projected;
            String serial;
            if (m.route() != HotPreload.Route.HOME) {
                projected = m.buckets() / m.streamCpuUs() * 1e6;
                serial = String.format("each bucket %.1f µs per purchase of the goods", m.streamCpuUs() / m.buckets());
            } else {
                double routing = Math.max(0, m.streamCpuUs() - c1);
                projected = Math.min(m.buckets() / c1 * 1e6, 1e6 / (routing + c1 / m.buckets()));
                serial = String.format("the home's routing %.1f µs per purchase", routing);
            }
            out.printf(
                    "projection          %d buckets, %s, on %d+ cores: %,.0f decisions/s (%s) = ×%.2f of 1 bucket on"
                            + " its core (%,.0f)%n",
                    m.buckets(),
                    m.route().name().toLowerCase(),
                    m.buckets() + 1,
                    projected,
                    serial,
                    projected / (1e6 / c1),
                    1e6 / c1);
            ratios.add(projected / (1e6 / c1));
        }
        return ratios;
    }

    /** CPU time of this JVM's stream threads so far (they live as long as the app). */
    private static long streamThreadsCpuNanos() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (java.lang.management.ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t == null || !t.getThreadName().contains("StreamThread")) continue;
            long cpu = mx.getThreadCpuTime(t.getThreadId());
            if (cpu > 0) total += cpu;
        }
        return total;
    }

    private static KafkaConsumer<String, byte[]> outcomeReader(Settings s, Topics topics) {
        KafkaConsumer<String, byte[]> c = KafkaClients.consumer(
                s,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        5000));
        List<TopicPartition> parts = new ArrayList<>();
        for (String t : topics.outcomes())
            c.partitionsFor(t).forEach(p -> parts.add(new TopicPartition(t, p.partition())));
        c.assign(parts); // no group: nothing left on the broker
        c.seekToBeginning(parts);
        return c;
    }
}
