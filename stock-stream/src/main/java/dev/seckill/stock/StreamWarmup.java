package dev.seckill.stock;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.observability.Console;
import dev.seckill.kit.observability.MetricsServer;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.kit.warmup.JitSettle;
import dev.seckill.kit.warmup.Readiness;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * Warms stock-stream before it reports ready: a second app of the same code decides {@code n} purchases (sales open,
 * buyers succeed, retry, run into the limit and the sold-out gate) on a namespace of its own — topics
 * {@code <prefix>warmup-<run>.*}, application id {@code <prefix>warmup-<run>.stock-stream}, Redis keys under
 * {@code <redisPrefix>warmup:<run>:} — so the JIT compiles Kafka Streams', the clients' and the decision's hot code,
 * the Lua scripts are loaded and the Redis connections open, while no real goods' key or topic is touched. No client
 * value can name a key there: goods keys are {@code <redisPrefix><kind>:{id}}, status keys {@code <redisPrefix>purchase:}.
 * Everything it created is deleted afterwards: its topics, its consumer group and its keys (by name: no SCAN).
 */
public final class StreamWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(StreamWarmup.class);
    /** Goods of the warm-up sale: several, so both stream threads get tasks. */
    static final int GOODS = 4;

    static final long FIRST_GOODS = 1;
    /** Two partitions (one task per stream thread): creating and deleting 12 per topic took seconds on a busy broker. */
    static final int PARTITIONS = 2;

    private final Settings settings;
    private final String run =
            HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());

    public StreamWarmup(Settings real) {
        String topicPrefix = real.topicPrefix() + "warmup-" + run + ".";
        // the application id is set here, never derived: a configured stream.application.id would make the warm-up app
        // join the real one's group
        this.settings = real.and(Map.of(
                Settings.TOPIC_PREFIX,
                topicPrefix,
                Settings.REDIS_PREFIX,
                real.redisPrefix() + "warmup:" + run + ":",
                "stream.application.id",
                topicPrefix + "stock-stream",
                // one instance, alone in its group: no standby to place, no peer to watch
                StockStreamSettings.STANDBY_REPLICAS.name(),
                "0",
                StockStreamSettings.LEASE_MS.name(),
                "0"));
    }

    /**
     * Marks the service {@code warming} and warms it on a daemon thread, then UP (also when the warm-up failed: it only
     * makes the first seconds faster); {@code n} 0: UP at once.
     */
    public static void inBackground(Settings real, int n, Readiness readiness) {
        if (n <= 0) {
            readiness.up();
            return;
        }
        readiness.warming();
        Thread t = new Thread(
                () -> {
                    String done;
                    try {
                        done = new StreamWarmup(real).run(n);
                    } catch (Exception e) {
                        done = "warm-up failed, ready anyway (only the first seconds are slower): " + e;
                    }
                    readiness.up();
                    Console.println("stock-stream READY: " + done);
                },
                "stock-stream-warmup");
        t.setDaemon(true);
        t.start();
    }

    /** Decides {@code n} purchases with a warm-up app, deletes everything it created, lets the JIT settle; says what it did. */
    public String run(int n) throws Exception {
        long t0 = System.nanoTime();
        Topics topics = new Topics(settings.topicPrefix());
        try {
            TopicProvisioner.ensure(settings, topics, PARTITIONS);
            long end = preload(topics, n);
            try (StockStreamApp app = new StockStreamApp(settings, MetricsServer.scratchRegistry()).start()) {
                awaitDecided(topics, end, Duration.ofMinutes(5));
            }
        } finally {
            cleanUp();
        }
        long decidedMs = (System.nanoTime() - t0) / 1_000_000;
        JitSettle.await(Duration.ofSeconds(15));
        return String.format(
                "%,d warm-up purchases decided on namespace %s in %,d ms, JIT settled after %,d ms",
                n, settings.topicPrefix(), decidedMs, (System.nanoTime() - t0) / 1_000_000);
    }

    /** Opens the warm-up sales and sends the purchases; returns how many records the commands topic received. */
    private long preload(Topics topics, int n) throws Exception {
        Instant now = Instant.now();
        long stock = Math.max(1, n / (GOODS * 4)); // a quarter succeeds, the rest meets a sold-out goods
        try (KafkaProducer<String, byte[]> p = KafkaClients.producer(
                settings,
                Map.of(
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.LINGER_MS_CONFIG,
                        5,
                        ProducerConfig.COMPRESSION_TYPE_CONFIG,
                        "lz4"),
                new StringSerializer(),
                new ByteArraySerializer())) {
            for (int g = 0; g < GOODS; g++) {
                OpenSale open = new OpenSale(
                        FIRST_GOODS + g,
                        stock,
                        now.minusSeconds(60),
                        now.plus(Duration.ofHours(1)),
                        1,
                        "open-" + g,
                        true);
                p.send(new ProducerRecord<>(topics.commands(), open.key(), CommandCodec.encode(open)))
                        .get(30, TimeUnit.SECONDS);
            }
            for (int i = 0; i < n; i++) {
                // every 8th buyer tries twice (DUPLICATE), the same id again now and then (a retry: nothing emitted)
                long user = 1 + (i % 8 == 7 ? i - 1 : i);
                Purchase c = new Purchase("w" + (i % 16 == 15 ? i - 1 : i), FIRST_GOODS + i % GOODS, user, 1, now);
                p.send(new ProducerRecord<>(topics.commands(), c.key(), CommandCodec.encode(c)));
            }
            p.flush();
        }
        return (long) n + GOODS;
    }

    /** Until the warm-up app has committed offsets past every command (its outputs are then committed too). */
    private void awaitDecided(Topics topics, long records, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin()) {
            while (committed(admin, topics) < records) {
                if (System.nanoTime() > deadline)
                    throw new IllegalStateException("warm-up app did not decide its purchases in " + timeout);
                TimeUnit.MILLISECONDS.sleep(100); // polling the group's committed offsets
            }
        }
    }

    private long committed(Admin admin, Topics topics) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(GroupIds.stockStream(settings))
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        return offsets.entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topics.commands()) && e.getValue() != null)
                .mapToLong(e -> e.getValue().offset())
                .sum();
    }

    /** Deletes the warm-up's topics (its own and the app's changelogs, all under its prefix), group and Redis keys. */
    void cleanUp() {
        try (Admin admin = admin()) {
            List<String> mine = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(settings.topicPrefix()))
                    .toList();
            if (!mine.isEmpty()) admin.deleteTopics(mine).all().get(60, TimeUnit.SECONDS);
            admin.deleteConsumerGroups(List.of(GroupIds.stockStream(settings)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("warm-up topics/group under {} not all deleted: {}", settings.topicPrefix(), e.getMessage());
        }
        RedisKeys keys = new RedisKeys(settings.redisPrefix());
        List<String> names = new ArrayList<>();
        for (int g = 0; g < GOODS; g++) names.addAll(keys.goodsKeys(FIRST_GOODS + g));
        try (UnifiedJedis jedis = RedisConnections.open(settings)) {
            jedis.unlink(names.toArray(String[]::new));
        }
    }

    private Admin admin() {
        return KafkaClients.admin(settings);
    }
}
