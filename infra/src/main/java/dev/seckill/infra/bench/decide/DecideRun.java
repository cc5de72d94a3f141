package dev.seckill.infra.bench.decide;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.infra.harness.PreloadProducer;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.Sales;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stock.StockStreamApp;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One measured run of {@code bench decide}: N purchases preloaded into a namespace of its own, then stock-stream started
 * and timed until its committed offsets reach the end of the commands topic.
 */
public final class DecideRun {
    private DecideRun() {}

    /** What one run measured. */
    record Measured(
            double rate,
            double steady,
            double shortCircuited,
            double luaCalls,
            long peakRss,
            double batches,
            double meanBatch,
            double redisWaitSeconds,
            double seconds) {
        /** The share of the run the stream threads spent waiting for Redis to answer a batch. */
        double redisWaitShare() {
            return seconds <= 0 ? 0 : redisWaitSeconds / seconds;
        }
    }

    static Measured measure(Settings s, int n, int goodsCount, long stock, String label, PrintStream out)
            throws Exception {
        Topics topics = new Topics(s.topicPrefix());
        TopicProvisioner.ensure(s, topics);
        preload(s, topics, n, goodsCount, stock, out);
        ProgressBar bar = new ProgressBar(label, n + goodsCount);
        long t0 = System.nanoTime();
        Run run;
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (StockStreamApp app = new StockStreamApp(s, metrics).start()) {
            run = awaitCommitted(s, topics, n + goodsCount, bar, Duration.ofMinutes(20));
        }
        double seconds = (run.endNanos() - t0) / 1e9;
        HistogramSnapshot batchSizes = metrics.find("seckill_decision_batch_size").summaries().stream()
                .findFirst()
                .map(DistributionSummary::takeSnapshot)
                .orElse(null);
        double batches = batchSizes == null ? 0 : batchSizes.count();
        return new Measured(
                n / seconds,
                (n + goodsCount - run.firstDone()) / ((run.endNanos() - run.firstNanos()) / 1e9),
                metrics.counter("seckill_short_circuit_hits").count(),
                metrics.find("seckill_redis_call").timers().stream()
                        .mapToDouble(t -> t.count())
                        .sum(),
                run.peakRss(),
                batches,
                batchSizes == null ? 0 : batchSizes.mean(),
                redisWaitSeconds(metrics, batches),
                seconds);
    }

    /**
     * The time the stream threads waited for Redis: each call records its batch's whole round trip, so the calls'
     * mean is the mean round trip, once per batch decided.
     */
    private static double redisWaitSeconds(SimpleMeterRegistry metrics, double batches) {
        double calls = 0;
        double total = 0;
        for (var t : metrics.find("seckill_redis_call").timers()) {
            calls += t.count();
            total += t.totalTime(TimeUnit.SECONDS);
        }
        return calls == 0 ? 0 : total / calls * batches;
    }

    public static void preload(Settings s, Topics topics, int n, int goodsCount, long stock, PrintStream out)
            throws Exception {
        Instant now = Instant.now();
        ProgressBar bar = new ProgressBar("preload", n);
        try (KafkaProducer<String, byte[]> p = PreloadProducer.create(s)) {
            for (int g = 0; g < goodsCount; g++) {
                // not waited for: the stream starts once every command is on the topic
                OpenSale open = Sales.started(1001 + g, stock, Duration.ofHours(2), 1, "bench-open-" + g);
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
    public record Run(long firstNanos, long firstDone, long endNanos, long peakRss) {}

    /** Waits until the stream's committed offsets reach the end of the commands topic. */
    public static Run awaitCommitted(Settings s, Topics topics, long total, ProgressBar bar, Duration timeout)
            throws Exception {
        String group = StockStreamApp.streamsConfig(s).getProperty("application.id");
        long peak = 0;
        long firstNanos = 0;
        long firstDone = 0;
        try (Admin admin = KafkaClients.admin(s)) {
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
