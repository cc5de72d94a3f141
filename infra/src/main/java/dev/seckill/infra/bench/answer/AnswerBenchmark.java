package dev.seckill.infra.bench.answer;

import dev.seckill.contracts.Topics;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.bench.RawLua;
import dev.seckill.infra.bench.TextTable;
import dev.seckill.infra.bench.decide.DecideRun;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Pipeline;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code ./seckill bench answer}: time to answer — from the moment a buyer sends a purchase (with {@code Prefer: wait})
 * to the moment it holds the outcome — through the whole pipeline (gateway, Kafka, stock-stream with EOS, Redis Lua,
 * the outcome topics back to the gateway), for each stock-stream commit interval given, next to the accept latency
 * (time to 202) of the same load and to the stream's decisions/s over a preloaded backlog with that interval, itself
 * next to raw pipelined Lua (the reference {@code bench decide} prints). One run gives the whole table.
 */
public final class AnswerBenchmark {
    private AnswerBenchmark() {}

    private static final long UNCAPPED = 10_000_000;

    record Row(int commitMs, double decisionsPerSecond, AnswerPhases.Figures figures) {}

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        PrintStream out = o.text();
        int[] intervals = Arrays.stream(f.get("commit-intervals").split(","))
                .map(String::trim)
                .mapToInt(Integer::parseInt)
                .toArray();
        AnswerPhases.Shape shape = new AnswerPhases.Shape(
                (int) f.getCount("sequential"),
                f.getLong("rate"),
                (int) f.getCount("seconds"),
                (int) f.getCount("requests"),
                (int) f.getLong("concurrency"),
                (int) f.getCount("warmup"));
        int decide = (int) f.getCount("decide");
        // the stream's poll timeout: left to the configuration (SECKILL_STREAM_POLL_MS) unless given
        if (f.has("poll-ms"))
            base = base.and(Map.of(StockStreamSettings.POLL_MS.name(), Long.toString(f.getCount("poll-ms", 0))));
        if (f.has("caught-up-ms"))
            base = base.and(Map.of(
                    StockStreamSettings.CAUGHT_UP_COMMIT_MS.name(), Long.toString(f.getCount("caught-up-ms", 0))));
        String name = "bench-ans-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        out.printf(
                "bench answer: commit intervals %s ms; per interval: %,d-request warm-up, %d requests one at a time, an open loop "
                        + "at %,.0f/s for %d s, a closed loop of %,d requests from %d clients (each with Prefer: wait=%d and, before it, "
                        + "without: the accept reference), then %,d preloaded purchases decided (decisions/s); namespace %s*%n",
                Arrays.toString(intervals),
                shape.warmup(),
                shape.sequential(),
                shape.rate(),
                shape.seconds(),
                shape.requests(),
                shape.concurrency(),
                AnswerPhases.WAIT_SECONDS,
                decide,
                name);
        double rawPipelined;
        Namespace rawNs = Namespace.create(base, name + "-raw");
        try (UnifiedJedis jedis = RedisConnections.open(rawNs.settings())) {
            rawPipelined = RawLua.opsPerSecond(jedis, rawNs.settings().redisPrefix() + "raw-p:", 200_000, true);
        }
        rawNs.deleteRedisKeys();
        out.printf(
                "stream             poll.ms %s, early commit when caught up %s ms, batch linger %s ms; gateway linger %s ms, "
                        + "outcome fetch max wait %s ms%n",
                base.get(StockStreamSettings.POLL_MS),
                base.get(StockStreamSettings.CAUGHT_UP_COMMIT_MS),
                base.get(StockStreamSettings.BATCH_LINGER_MS),
                base.get(GatewaySettings.LINGER_MS),
                base.get(GatewaySettings.OUTCOME_FETCH_MAX_WAIT_MS));
        out.printf("raw Lua pipelined  %,.0f ops/s (batches of 32; the reference of decisions/s)%n", rawPipelined);
        List<Row> rows = new ArrayList<>();
        for (int c : intervals) {
            Namespace ns = Namespace.create(base, name + "-c" + c);
            ns = new Namespace(
                    ns.name(),
                    ns.settings()
                            .and(Map.of(
                                    "stream.commit.interval.ms",
                                    Integer.toString(c),
                                    "gateway.limit.global.per.second",
                                    Long.toString(UNCAPPED),
                                    "gateway.limit.goods.per.second",
                                    Long.toString(UNCAPPED))));
            out.printf("%n-- commit interval %d ms --%n", c);
            AnswerPhases.Figures figures;
            try (Pipeline p = new Pipeline(ns).start()) {
                figures = new AnswerPhases(p, out).run(shape);
            } finally {
                cleanUp(ns);
            }
            double decisions = decide > 0 ? decisions(base, name + "-d" + c, c, decide, out) : Double.NaN;
            rows.add(new Row(c, decisions, figures));
            AnswerPhases.print(out, shape, figures);
            if (decide > 0) {
                out.printf(
                        "  decisions        %,.0f/s steady over %,d preloaded purchases (×%.2f raw pipelined Lua)%n",
                        decisions, decide, decisions / rawPipelined);
            }
        }
        printTable(out, shape, rows, rawPipelined);
        o.put("rawLuaPipelinedOpsPerSecond", rawPipelined).put("shape", shape).put("intervals", rows);
        return 0;
    }

    static void printTable(PrintStream out, AnswerPhases.Shape shape, List<Row> rows, double rawPipelined) {
        out.printf("%n== bench answer ==%n");
        out.printf(
                "time to answer = request sent (open loop: due) -> outcome held by the client (Prefer: wait=%d); accept = -> 202%n",
                AnswerPhases.WAIT_SECONDS);
        TextTable t = TextTable.of(
                "commit ms",
                "decisions/s",
                "×raw Lua pipelined",
                "one at a time p50",
                String.format("open %,.0f/s p50", shape.rate()),
                "p99",
                "p99.9",
                "≤100 ms",
                "≤1 s",
                "open accept p99",
                String.format("closed %d clients answers/s", shape.concurrency()),
                "closed p50",
                "closed p99");
        for (Row r : rows) {
            AnswerPhases.Figures f = r.figures();
            t.row(
                    r.commitMs(),
                    String.format("%,.0f", r.decisionsPerSecond()),
                    String.format("%.2f", r.decisionsPerSecond() / rawPipelined),
                    ms(f.sequential().percentileMillis(50)),
                    ms(f.open().percentileMillis(50)),
                    ms(f.open().percentileMillis(99)),
                    ms(f.open().percentileMillis(99.9)),
                    String.format("%.1f%%", 100 * f.open().shareWithin(100)),
                    String.format("%.1f%%", 100 * f.open().shareWithin(1000)),
                    ms(f.openAcceptP99()),
                    String.format("%,.0f", f.closedAnsweredPerSecond()),
                    ms(f.closed().percentileMillis(50)),
                    ms(f.closed().percentileMillis(99)));
        }
        out.print(t.markdown());
        out.println("(an infinite percentile: that share of requests had no outcome within the wait)");
    }

    private static String ms(double ms) {
        return String.format("%.1f ms", ms);
    }

    /** The stream alone over a preloaded backlog of one hot goods, as {@code bench decide}: decisions/s from first to last commit. */
    static double decisions(Settings base, String name, int commitMs, int n, PrintStream out) throws Exception {
        Namespace ns = Namespace.create(base, name);
        Settings s = ns.settings().and(Map.of("stream.commit.interval.ms", Integer.toString(commitMs)));
        Topics topics = new Topics(s.topicPrefix());
        try {
            TopicProvisioner.ensure(s, topics);
            DecideRun.preload(s, topics, n, 1, 1000, out);
            DecideRun.Run run;
            try (StockStreamApp app = new StockStreamApp(s, new SimpleMeterRegistry()).start()) {
                run = DecideRun.awaitCommitted(
                        s, topics, n + 1, new ProgressBar("deciding", n + 1), Duration.ofMinutes(10));
            }
            return (n + 1 - run.firstDone()) / ((run.endNanos() - run.firstNanos()) / 1e9);
        } finally {
            ns.deleteTopics();
            ns.deleteRedisKeys();
        }
    }

    private static void cleanUp(Namespace ns) {
        try {
            ns.deleteTopics();
            ns.deleteRedisKeys();
            ns.dropDatabase();
        } catch (RuntimeException e) {
            System.err.println("bench answer: cleaning up " + ns.name() + " failed: " + e.getMessage());
        }
    }
}
