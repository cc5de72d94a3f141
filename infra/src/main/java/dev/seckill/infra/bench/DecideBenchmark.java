package dev.seckill.infra.bench;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.infra.cli.CliCommands;
import dev.seckill.infra.cli.Flags;
import dev.seckill.infra.cli.ProgressBar;
import dev.seckill.infra.drill.Namespace;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.stock.StockStreamApp;
import dev.seckill.stock.StockStreamSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code ./seckill bench decide}: preloads N purchase commands, then times stock-stream (exactly_once_v2) deciding
 * them all, and in the same run measures the raw purchase Lua against the same Redis, unpipelined and pipelined.
 */
public final class DecideBenchmark {
    private DecideBenchmark() {}

    public static int run(Settings base, String[] args, PrintStream out) throws Exception {
        Flags f = CliCommands.BENCH_DECIDE.parse(args);
        int n = (int) f.getLong("commands", 1_000_000);
        int goodsCount = (int) f.getLong("goods", 1);
        long stock = f.getLong("stock", 1000);
        int rawOps = (int) f.getLong("raw", 200_000);
        int warmup = (int) f.getCount("warmup", 300_000);
        String name = "bench-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Namespace ns = Namespace.create(base, name);
        Settings s = streamSettings(ns, f);
        Topics topics = new Topics(s.topicPrefix());
        TopicProvisioner.ensure(s.kafkaBootstrap(), topics, TopicProvisioner.DEFAULT_PARTITIONS);
        out.printf(
                "bench decide: %,d purchases over %d goods (stock %,d each), %s threads, commit %s ms, namespace %s%n",
                n,
                goodsCount,
                stock,
                s.get(StockStreamSettings.THREADS),
                s.get(StockStreamSettings.COMMIT_INTERVAL_MS),
                name);

        preload(s, topics, n, goodsCount, stock, out);
        if (warmup > 0) warmUp(base, name, f, warmup, goodsCount, stock, out);
        double rawPlain;
        double rawPipelined;
        try (UnifiedJedis redis = RedisConnections.open(s)) {
            rawPlain = RawLua.opsPerSecond(redis, s.redisPrefix() + "raw:", rawOps, false);
            rawPipelined = RawLua.opsPerSecond(redis, s.redisPrefix() + "raw-p:", rawOps, true);
        }
        out.printf(
                "raw Lua    %,.0f ops/s unpipelined (1 connection), %,.0f ops/s pipelined (batches of 32)%n",
                rawPlain, rawPipelined);

        ProgressBar bar = new ProgressBar(out, "deciding", n + goodsCount);
        long t0 = System.nanoTime();
        Run run;
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (StockStreamApp app = new StockStreamApp(s, metrics).start()) {
            run = awaitCommitted(s, topics, n + goodsCount, bar, Duration.ofMinutes(20));
        }
        long tEnd = run.endNanos();
        double seconds = (tEnd - t0) / 1e9;
        double rate = n / seconds;
        double steady = (n + goodsCount - run.firstDone()) / ((tEnd - run.firstNanos()) / 1e9);
        long peakRss = run.peakRss();
        out.printf("%n== bench decide ==%n");
        out.printf(
                "decided             %,d commands in %.1f s (start-up included) = %,.0f decisions/s (EOS on)%n",
                n, seconds, rate);
        out.printf("steady              %,.0f decisions/s (from the first commit to the last)%n", steady);
        out.printf(
                "short-circuited     %,.0f purchases answered in memory (sold out), %,.0f Lua calls%n",
                metrics.counter("seckill_short_circuit_hits").count(),
                metrics.find("seckill_redis_call").timers().stream()
                        .mapToDouble(t -> t.count())
                        .sum());
        out.printf("raw Lua unpipelined %,.0f ops/s   ratio %.2f%n", rawPlain, rate / rawPlain);
        out.printf("raw Lua pipelined   %,.0f ops/s   ratio %.2f%n", rawPipelined, rate / rawPipelined);
        out.printf("peak RSS            %,d MB (this JVM: stream app + benchmark)%n", peakRss / (1024 * 1024));
        out.printf(
                warmup > 0
                        ? "warm-up             %,d purchases decided by a first app instance on its own namespace before this run%n"
                        : "warm-up             none (--warmup %d): the figure includes the JIT compiling the app%n",
                warmup);
        out.printf("cleaned up          %d topics of this run deleted from the broker%n", ns.deleteTopics());
        return 0;
    }

    /**
     * The same pipeline on a namespace of its own, run to the end and closed before the measured run: the JIT compiles
     * Kafka Streams', the producer's and the decision's hot code (on two cores its compiler threads otherwise take
     * most of a core through the first ~20 s), so the figure is that of a service that has been up for a while —
     * like the gateway benchmark's warm-up. Its topics are deleted afterwards.
     */
    static void warmUp(Settings base, String name, Flags f, int n, int goodsCount, long stock, PrintStream out)
            throws Exception {
        Namespace ns = Namespace.create(base, name + "-warmup");
        Settings s = streamSettings(ns, f);
        Topics topics = new Topics(s.topicPrefix());
        TopicProvisioner.ensure(s.kafkaBootstrap(), topics, TopicProvisioner.DEFAULT_PARTITIONS);
        preload(s, topics, n, goodsCount, stock, out);
        ProgressBar bar = new ProgressBar(out, "warm-up", n + goodsCount);
        try (StockStreamApp app = new StockStreamApp(s, new SimpleMeterRegistry()).start()) {
            awaitCommitted(s, topics, n + goodsCount, bar, Duration.ofMinutes(20));
        }
        ns.deleteTopics();
    }

    private static Settings streamSettings(Namespace ns, Flags f) {
        // the commit interval is the app's default (StockStreamApp) unless --commit-ms says otherwise
        Settings s = ns.settings().and(Map.of(StockStreamSettings.THREADS.name(), f.get("threads", "2")));
        return f.has("commit-ms")
                ? s.and(Map.of(StockStreamSettings.COMMIT_INTERVAL_MS.name(), f.get("commit-ms", "")))
                : s;
    }

    static void preload(Settings s, Topics topics, int n, int goodsCount, long stock, PrintStream out)
            throws Exception {
        Instant now = Instant.now();
        ProgressBar bar = new ProgressBar(out, "preload", n);
        try (KafkaProducer<String, byte[]> p = ReliableProducers.create(
                s.kafkaBootstrap(),
                Map.of(
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024,
                        ProducerConfig.COMPRESSION_TYPE_CONFIG,
                        "lz4"))) {
            for (int g = 0; g < goodsCount; g++) {
                OpenSale open = new OpenSale(
                        1001 + g,
                        stock,
                        now.minusSeconds(60),
                        now.plus(Duration.ofHours(2)),
                        1,
                        "bench-open-" + g,
                        false);
                p.send(new ProducerRecord<>(topics.commands(), open.key(), CommandCodec.encode(open)))
                        .get();
            }
            for (int i = 0; i < n; i++) {
                Purchase c = new Purchase("b" + i, 1001 + (i % goodsCount), 1 + i, 1, now);
                p.send(new ProducerRecord<>(topics.commands(), c.key(), CommandCodec.encode(c)));
                if ((i & 1023) == 0) bar.update(i);
            }
            p.flush();
            bar.finish(n);
        }
    }

    /** When the first commit was seen and how much it covered, when the last one came, and the peak RSS. */
    record Run(long firstNanos, long firstDone, long endNanos, long peakRss) {}

    /** Waits until the stream's committed offsets reach the end of the commands topic. */
    static Run awaitCommitted(Settings s, Topics topics, long total, ProgressBar bar, Duration timeout)
            throws Exception {
        String group = StockStreamApp.streamsConfig(s).getProperty("application.id");
        long peak = 0;
        long firstNanos = 0;
        long firstDone = 0;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", s.kafkaBootstrap()))) {
            List<TopicPartition> parts = admin
                    .describeTopics(List.of(topics.commands()))
                    .allTopicNames()
                    .get()
                    .get(topics.commands())
                    .partitions()
                    .stream()
                    .map(p -> new TopicPartition(topics.commands(), p.partition()))
                    .toList();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            parts.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    admin.listOffsets(latest).all().get();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata()
                        .get();
                AtomicLong done = new AtomicLong();
                boolean all = true;
                for (TopicPartition tp : parts) {
                    OffsetAndMetadata c = committed.get(tp);
                    long end = ends.get(tp).offset();
                    done.addAndGet(c == null ? 0 : c.offset());
                    if (end > 0 && (c == null || c.offset() < end)) all = false;
                }
                peak = Math.max(peak, rss());
                bar.update(Math.min(done.get(), total));
                if (all) {
                    bar.finish(total);
                    return new Run(
                            firstNanos == 0 ? System.nanoTime() : firstNanos, firstDone, System.nanoTime(), peak);
                }
                if (firstNanos == 0 && done.get() > 0) {
                    firstNanos = System.nanoTime();
                    firstDone = done.get();
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        throw new IllegalStateException("the stream did not decide everything within " + timeout);
    }

    static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (IOException e) {
            return 0;
        }
        return 0;
    }
}
