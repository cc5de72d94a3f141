package dev.seckill.reconcile;

import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.order.OrderWriterApp;
import dev.seckill.order.db.Database;
import dev.seckill.stack.KafkaFixture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;

/**
 * What a reconciler test needs of the real stack: the pipeline's topics under a prefix of its own on the test broker, a
 * database of its own on the machine's MariaDB/MySQL (migrated by order-writer's Flyway, the schema's owner), Redis keys
 * under a prefix of its own, a producer; order-writer on demand. close() deletes all of it.
 */
final class ReconcilerStack implements AutoCloseable {
    static final String DB_SERVER =
            System.getenv().getOrDefault("SECKILL_TEST_DB_SERVER", "jdbc:mysql://127.0.0.1:3306");
    final String name = "rc_" + UUID.randomUUID().toString().substring(0, 8);
    final String database = "seckill_" + name;
    final Settings settings;
    final Topics topics;
    final RedisKeys keys;
    final KafkaProducer<String, byte[]> producer;
    final HikariDataSource db;
    final UnifiedJedis redis;
    final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final List<AutoCloseable> started = new ArrayList<>();

    ReconcilerStack() {
        settings = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                name + ".",
                Settings.REDIS_PREFIX,
                name + ":",
                Settings.DB_URL,
                DB_SERVER + "/" + database + "?createDatabaseIfNotExist=true",
                "writer.payment.timeout.ms",
                "600000"));
        topics = new Topics(settings.topicPrefix());
        keys = new RedisKeys(settings.redisPrefix());
        TopicProvisioner.ensure(settings, topics, 2);
        producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", settings.kafkaBootstrap(), "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer());
        db = Database.open(settings, name);
        redis = RedisConnections.open(settings);
    }

    Reconciler reconciler(Producer<String, byte[]> commands) throws Exception {
        Reconciler r = new Reconciler(settings, db, redis, commands, metrics, false);
        started.add(r);
        return r;
    }

    /** order-writer on this stack: applies the ledger (orders from its DEDUCTED entries), commits what it wrote. */
    OrderWriterApp writer() {
        OrderWriterApp app = new OrderWriterApp(settings, new SimpleMeterRegistry(), status -> {}).start();
        started.add(app);
        return app;
    }

    void send(String topic, long goods, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(topic, Long.toString(goods), value)).get(30, TimeUnit.SECONDS);
    }

    void ledger(LedgerEntry e) throws Exception {
        send(topics.ledger(), e.goodsId(), Json.write(e));
    }

    /** An OPENED entry of a live sale (its keys expire in an hour), made by the command at {@code commandOffset}. */
    void opened(long goods, long stock, long commandOffset) throws Exception {
        ledger(openedEntry("open-" + goods + "-" + commandOffset, goods, stock, commandOffset));
    }

    /** The OPENED entry {@link #opened} sends, under {@code opId}: a live sale, its keys expiring in an hour. */
    static LedgerEntry openedEntry(String opId, long goods, long stock, long commandOffset) {
        return LedgerEntry.of(opId, goods, LedgerType.OPENED, stock, null, null, null, stock, Instant.now())
                .withKeysExpireAt(Instant.now().plus(Duration.ofHours(1)))
                .withCommandOffset(commandOffset);
    }

    void deducted(long goods, long user, String requestId, long stockAfter) throws Exception {
        ledger(LedgerEntry.of(
                LedgerEntry.deductOpId(goods, requestId),
                goods,
                LedgerType.DEDUCTED,
                1,
                user,
                requestId,
                null,
                stockAfter,
                Instant.now()));
    }

    /**
     * A purchase's order row lost after order-writer wrote it (a database restored from an older backup, an operator's
     * delete): waits for the row, then deletes it. Its ledger row stays, so the writer never writes it again.
     */
    void orderLost(long goods, String requestId) throws Exception {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> text(
                                "SELECT order_id FROM purchase_order WHERE goods_id = ? AND request_id = ?",
                                goods,
                                requestId)
                        != null);
        try (Connection c = db.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("DELETE FROM purchase_order WHERE goods_id = ? AND request_id = ?")) {
            ps.setLong(1, goods);
            ps.setString(2, requestId);
            ps.executeUpdate();
        }
    }

    /** A live order of the buyer with no purchase behind it (written by hand): it holds the buyer's live-order key. */
    void strayOrder(long goods, long user, String requestId) throws Exception {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO purchase_order (request_id, goods_id, user_id, "
                        + "quantity, status, live_user_id) VALUES (?, ?, ?, 1, 'CREATED', ?)")) {
            ps.setString(1, requestId);
            ps.setLong(2, goods);
            ps.setLong(3, user);
            ps.setLong(4, user);
            ps.executeUpdate();
        }
    }

    /** Redis as stock-stream would hold the sale: its stock and one buyer entry per live buyer. */
    void redisHolds(long goods, long stock, long... buyers) {
        redis.set(keys.stock(goods), Long.toString(stock));
        for (long b : buyers) redis.hset(keys.buyers(goods), Long.toString(b), "1");
    }

    String text(String sql, Object... args) throws Exception {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    long one(String sql, Object... args) throws Exception {
        String v = text(sql, args);
        if (v == null) throw new IllegalStateException("no row: " + sql);
        return Long.parseLong(v);
    }

    /** Every record on the commands topic so far, as text. */
    List<String> commands() {
        List<String> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, byte[]>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafkaBootstrap()),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            TopicProvisioner.assignAll(consumer, List.of(topics.commands()), false);
            var ends = consumer.endOffsets(consumer.assignment());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100))
                        .forEach(r -> out.add(new String(r.value(), StandardCharsets.UTF_8)));
                return ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
            });
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        for (int i = started.size() - 1; i >= 0; i--) started.get(i).close();
        producer.close();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", settings.kafkaBootstrap()))) {
            admin.deleteTopics(topics.all()).all().get(30, TimeUnit.SECONDS);
        } finally {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                var page = redis.scan(
                        cursor, new ScanParams().match(keys.prefix() + "*").count(500));
                if (!page.getResult().isEmpty()) redis.del(page.getResult().toArray(String[]::new));
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            redis.close();
            db.close();
            try (Connection c = DriverManager.getConnection(DB_SERVER + "/?sslMode=DISABLED", "root", "")) {
                c.createStatement().execute("DROP DATABASE IF EXISTS " + database);
            }
        }
    }
}
