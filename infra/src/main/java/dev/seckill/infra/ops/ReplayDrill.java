package dev.seckill.infra.ops;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.reconcile.LedgerReader;
import dev.seckill.stock.bucket.HopSeal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * A replay drill: a window of a namespace's {@code commands} copied (same partition, key, headers and record time) into
 * a drill namespace of its own — topics, Redis prefix, database — where the decision and order pipeline runs beside the
 * live system, touching none of its data; then the drill's outcomes are compared with the recorded ones, request by
 * request. A drill may change the sale it replays ({@code stock}, {@code limit} of its {@code open_sale}s): the
 * differences are then those the change implies, each with why.
 */
public final class ReplayDrill {
    /** What to replay and how. {@code speed} 0 is as fast as it goes; 1 keeps the recorded inter-arrival times. */
    public record Options(CommandWindow window, Set<Long> goods, Long stock, Integer limit, double speed) {
        boolean changesTheSale() {
            return stock != null || limit != null;
        }
    }

    /** One request whose drill outcome is not its recorded one. */
    public record Difference(String requestId, Outcome recorded, Outcome drill, String why) {}

    /**
     * @param shifted requests with the recorded outcome and reason but another stockAfter (expected when the stock was
     *                changed; counted as identical then)
     */
    public record Result(
            long copied,
            long purchases,
            long identical,
            long shifted,
            List<Difference> differences,
            Set<Long> goodsWithoutOpen,
            Duration took) {
        public double decisionsPerSecond() {
            return took.isZero() ? 0 : purchases * 1000.0 / took.toMillis();
        }
    }

    private final Settings source;
    private final Namespace drill;

    public ReplayDrill(Settings source, Namespace drill) {
        this.source = source;
        this.drill = drill;
    }

    public Result run(Options o, LongConsumer copiedProgress, LongConsumer decidedProgress) throws Exception {
        Topics from = new Topics(source.topicPrefix());
        List<ConsumerRecord<String, byte[]>> window = new ArrayList<>();
        int partitions = readWindow(from.commands(), o, window);
        // the drill's topics have the recording's partitions, so each record keeps its partition; its gateway listens
        // on free ports (public and admin), never on the live one's
        Namespace ns = new Namespace(
                drill.name(),
                drill.settings()
                        .and(Map.of(
                                SharedSettings.TOPIC_PARTITIONS.name(),
                                Integer.toString(partitions),
                                GatewaySettings.PORT.name(),
                                "0",
                                GatewaySettings.METRICS_PORT.name(),
                                "0",
                                // the copies keep the recording's append times: the drill's windows close as the
                                // recording's did (nothing outside produces to a drill namespace)
                                SharedSettings.COMMANDS_TIMESTAMPS.name(),
                                "CreateTime")));
        Set<String> purchases = new LinkedHashSet<>();
        Set<Long> opened = new TreeSet<>();
        Set<Long> goods = new TreeSet<>();
        try (Pipeline pipeline = new Pipeline(ns).start();
                OutcomeLog log = new OutcomeLog(ns.settings(), pipeline.topics());
                KafkaProducer<String, byte[]> producer = ReliableProducers.create(ns.settings())) {
            long start = System.nanoTime(); // the drill's pipeline is up: from here it is copy and decide
            long copied = 0;
            long firstTs = window.isEmpty() ? 0 : window.get(0).timestamp();
            long t0 = System.nanoTime();
            for (ConsumerRecord<String, byte[]> r : window) {
                if (o.speed() > 0) pace(t0, (long) ((r.timestamp() - firstTs) / o.speed()));
                // the stream's own hops between a bucketed goods' buckets: the drill's stream sends its own
                if (r.headers().lastHeader(HopSeal.KIND) != null) continue;
                byte[] value = r.value();
                ParsedCommand parsed = CommandCodec.decode(value);
                if (parsed instanceof ParsedCommand.Valid v && v.command() instanceof OpenSale open) {
                    opened.add(open.goodsId());
                    if (o.changesTheSale()) value = CommandCodec.encode(changed(open, o));
                }
                if (parsed instanceof ParsedCommand.Valid v && v.command() instanceof Purchase p) {
                    purchases.add(p.requestId());
                    goods.add(p.goodsId());
                }
                if (parsed instanceof ParsedCommand.InvalidPurchase ip) purchases.add(ip.requestId());
                producer.send(new ProducerRecord<>(
                        pipeline.topics().commands(), r.partition(), r.timestamp(), r.key(), value, r.headers()));
                copiedProgress.accept(++copied);
            }
            producer.flush();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            Set<String> decided = new HashSet<>();
            while (decided.size() < purchases.size() && System.nanoTime() < deadline) {
                for (Outcome out : log.snapshot())
                    if (purchases.contains(out.requestId())) decided.add(out.requestId());
                decidedProgress.accept(decided.size());
                if (decided.size() < purchases.size()) Thread.sleep(100); // polling the drill's outcome log, bounded
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            goods.removeAll(opened);
            return ReplayComparison.compare(
                    o, copied, purchases, recorded(from, purchases), drilled(log, purchases), goods, took);
        }
    }

    private int readWindow(String topic, Options o, List<ConsumerRecord<String, byte[]>> out) {
        try (KafkaConsumer<String, byte[]> consumer = KafkaClients.consumer(
                source,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false))) {
            List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(parts);
            CommandWindow.Bounds bounds = o.window().resolve(consumer, parts);
            bounds.start().forEach(consumer::seek);
            while (parts.stream()
                    .anyMatch(tp -> consumer.position(tp) < bounds.end().get(tp))) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() >= bounds.end().get(new TopicPartition(r.topic(), r.partition()))) continue;
                    if (!o.goods().isEmpty() && !o.goods().contains(goodsOf(r.key()))) continue;
                    out.add(r);
                }
            }
            // one order for the copy: by record time, then partition and offset (each partition keeps its own order)
            out.sort(Comparator.comparingLong((ConsumerRecord<String, byte[]> r) -> r.timestamp())
                    .thenComparingInt(ConsumerRecord::partition)
                    .thenComparingLong(ConsumerRecord::offset));
            return parts.size();
        }
    }

    private static long goodsOf(String key) {
        try {
            return Long.parseLong(key);
        } catch (NumberFormatException | NullPointerException e) {
            return -1;
        }
    }

    private static OpenSale changed(OpenSale o, Options opts) {
        return new OpenSale(
                o.goodsId(),
                opts.stock() == null ? o.stock() : opts.stock(),
                o.startAt(),
                o.endAt(),
                opts.limit() == null ? o.perUserLimit() : opts.limit(),
                o.opId(),
                o.force());
    }

    private Map<String, Outcome> recorded(Topics from, Set<String> ids) {
        Map<String, Outcome> out = new HashMap<>();
        for (String topic : from.outcomes()) {
            LedgerReader.readAll(source, topic, r -> {
                Outcome o = Json.read(r.value(), Outcome.class);
                if (ids.contains(o.requestId())) out.putIfAbsent(o.requestId(), o);
            });
        }
        return out;
    }

    private static Map<String, Outcome> drilled(OutcomeLog log, Set<String> ids) {
        Map<String, Outcome> out = new HashMap<>();
        for (Outcome o : log.snapshot()) if (ids.contains(o.requestId())) out.putIfAbsent(o.requestId(), o);
        return out;
    }

    private static void pace(long t0, long atMs) throws InterruptedException {
        long wait = t0 + TimeUnit.MILLISECONDS.toNanos(atMs) - System.nanoTime();
        if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait); // --speed: the recording's own inter-arrival times
    }
}
