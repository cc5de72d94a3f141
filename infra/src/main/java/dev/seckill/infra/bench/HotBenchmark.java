package dev.seckill.infra.bench;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.Sales;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.stock.StockStreamApp;
import dev.seckill.stock.StockStreamSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code ./seckill bench hot}: one goods, every purchase through Lua, decided in 1, 2 and 4 buckets (each count on a
 * namespace of its own, the same purchases preloaded, then stock-stream started and timed until every purchase has its
 * committed outcome), next to raw pipelined Lua against the same Redis in the same run. The stock covers every
 * purchase with a tenth to spare, spread over the buckets as the open's shares: a bucket whose buyers outnumber its
 * share borrows (docs/invariants.md, "Stock buckets").
 */
public final class HotBenchmark {
    private static final long GOODS = 7_001;

    private HotBenchmark() {}

    /** One bucket count's run. */
    record Measured(int buckets, double rate, double steady, long sold) {}

    public static int run(Settings base, Flags f, PrintStream out) throws Exception {
        int n = (int) f.getCount("commands", 200_000);
        int warmup = (int) f.getCount("warmup", 100_000);
        List<Integer> counts = new ArrayList<>();
        for (String b : f.get("buckets", "1,2,4").split(",")) counts.add(Integer.parseInt(b.trim()));
        String name = "hot-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        out.printf(
                "bench hot: %,d purchases of one goods, every one through Lua, in %s buckets, %s stream threads%n",
                n, counts, f.get("threads", "2"));
        if (warmup > 0) measure(base, name + "-warmup", f, warmup, counts.get(counts.size() - 1), out);
        double rawPipelined;
        try (UnifiedJedis redis = RedisConnections.open(base)) {
            rawPipelined = RawLua.opsPerSecond(redis, base.redisPrefix() + name + ":raw-p:", 200_000, true);
        }
        List<Measured> runs = new ArrayList<>();
        for (int buckets : counts) runs.add(measure(base, name + "-b" + buckets, f, n, buckets, out));
        out.printf("%n== bench hot ==%n");
        out.printf(
                "raw Lua pipelined   %,.0f ops/s (batches of 32, one connection): one Redis' ceiling for one key%n",
                rawPipelined);
        out.printf(
                "%-8s %14s %14s %12s %12s %10s%n", "buckets", "decisions/s", "steady", "×1 bucket", "×raw Lua", "sold");
        double one = runs.get(0).steady();
        for (Measured m : runs)
            out.printf(
                    "%-8d %,14.0f %,14.0f %12.2f %12.2f %,10d%n",
                    m.buckets(), m.rate(), m.steady(), m.steady() / one, m.steady() / rawPipelined, m.sold());
        out.printf(
                "warm-up             %,d purchases in %d buckets on a namespace of their own before the runs%n",
                warmup, counts.get(counts.size() - 1));
        return 0;
    }

    /** Preloads the open and {@code n} purchases on a namespace of its own, starts the stream, times the outcomes. */
    private static Measured measure(Settings base, String name, Flags f, int n, int buckets, PrintStream out)
            throws Exception {
        Namespace ns = Namespace.create(base, name);
        try {
            Settings s = ns.settings()
                    .and(Map.of(
                            StockStreamSettings.THREADS.name(), f.get("threads", "2"),
                            StockStreamSettings.HOP_SECRET.name(),
                                    (UUID.randomUUID() + "" + UUID.randomUUID()).replace("-", "")));
            Topics topics = new Topics(s.topicPrefix());
            TopicProvisioner.ensure(s, topics, TopicProvisioner.DEFAULT_PARTITIONS);
            preload(s, topics, n, buckets);
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
                return new Measured(buckets, n / ((end - t0) / 1e9), n / ((end - first) / 1e9), sold);
            }
        } finally {
            ns.deleteTopics();
            ns.deleteRedisKeys();
        }
    }

    private static void preload(Settings s, Topics topics, int n, int buckets) throws Exception {
        Instant now = Instant.now();
        OpenSale started = Sales.started(GOODS, n + n / 10L, Duration.ofHours(2), 1, "hot-open");
        OpenSale open = new OpenSale(
                GOODS,
                started.stock(),
                started.startAt(),
                started.endAt(),
                1,
                started.opId(),
                false,
                started.fairness(),
                0,
                buckets);
        try (KafkaProducer<String, byte[]> p = ReliableProducers.create(
                s, Map.of(ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024))) {
            p.send(new ProducerRecord<>(topics.commands(), open.key(), CommandCodec.encode(open)))
                    .get();
            for (int i = 0; i < n; i++) {
                Purchase c = new Purchase("h" + i, GOODS, 1 + i, 1, now);
                p.send(new ProducerRecord<>(topics.commands(), c.key(), CommandCodec.encode(c)));
            }
            p.flush();
        }
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
        c.subscribe(topics.outcomes());
        return c;
    }
}
