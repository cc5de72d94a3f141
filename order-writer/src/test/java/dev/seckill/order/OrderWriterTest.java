package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import io.micrometer.core.instrument.search.MeterNotFoundException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
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
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The order-writer over a real broker and the machine's real MySQL-compatible server (a database of its own). */
class OrderWriterTest {
    static final String DB_SERVER =
            System.getenv().getOrDefault("SECKILL_TEST_DB_SERVER", "jdbc:mysql://127.0.0.1:3306");
    String name;
    Settings settings;
    Topics topics;
    KafkaProducer<String, byte[]> producer;

    @BeforeEach
    void setUp() {
        name = "ow_" + UUID.randomUUID().toString().substring(0, 8);
        settings = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                name + ".",
                Settings.DB_URL,
                DB_SERVER + "/seckill_" + name + "?createDatabaseIfNotExist=true"));
        topics = new Topics(settings.topicPrefix());
        TopicProvisioner.ensure(settings, topics, 3);
        producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", settings.kafkaBootstrap(), "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    @AfterEach
    void tearDown() throws Exception {
        producer.close();
        try (var admin = Admin.create(Map.of("bootstrap.servers", settings.kafkaBootstrap()))) {
            admin.deleteTopics(topics.all()).all().get(30, TimeUnit.SECONDS);
        }
        try (Connection c = DriverManager.getConnection(DB_SERVER + "/?sslMode=DISABLED", "root", "")) {
            c.createStatement().execute("DROP DATABASE IF EXISTS seckill_" + name);
        }
    }

    void send(String topic, long goods, Object value, String traceId) throws Exception {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, Long.toString(goods), Json.write(value));
        if (traceId != null) TraceHeaders.put(r.headers(), traceId);
        producer.send(r).get();
    }

    /** A purchase as the writer reads it: its DEDUCTED entry on the goods' ledger partition. */
    void purchase(LedgerEntry deducted, String traceId) throws Exception {
        producer.send(Purchases.onLedger(topics, deducted, traceId)).get();
    }

    static LedgerEntry deducted(String rid, long goods, long user, long stockAfter, long commandOffset) {
        return Purchases.deducted(goods, rid, user, stockAfter, commandOffset, Purchases.OPEN_OFFSET);
    }

    long query(OrderWriterApp app, String sql) throws Exception {
        try (Connection c = app.dataSource().getConnection();
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void givenPurchasesBeforeTheirOpenedEntry_whenConsumedTwiceFromTheStart_thenTheSameRowsStockAndLedger()
            throws Exception {
        List<LedgerEntry> purchases = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            purchases.add(deducted("r" + i, 1001, i, 50 - i, i));
            purchase(purchases.get(i - 1), "trace-" + i);
        }
        send(
                topics.ledger(),
                1001,
                LedgerEntry.of("open-1", 1001, LedgerType.OPENED, 50, null, null, null, 50, Instant.now()),
                null);
        purchase(purchases.get(0), null); // r1's DEDUCTED again, behind the open: a redelivery within the first read

        long[] first;
        try (OrderWriterApp app = new OrderWriterApp(
                        settings.and(Map.of("writer.group.id", name + "-a")), new SimpleMeterRegistry())
                .start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> query(app, "SELECT COUNT(*) FROM stock_ledger") == 11);
            first = new long[] {
                query(app, "SELECT COUNT(*) FROM purchase_order"),
                query(app, "SELECT stock FROM sale WHERE goods_id = 1001"),
                query(app, "SELECT COUNT(*) FROM stock_ledger")
            };
            assertThat(first).containsExactly(10, 40, 11);
            assertThat(query(
                            app,
                            "SELECT COUNT(*) FROM purchase_order WHERE request_id = 'r3' AND trace_id = 'trace-3'"))
                    .isEqualTo(1);
        }
        // a second consumer group reads everything again: a full redelivery
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (OrderWriterApp app =
                new OrderWriterApp(settings.and(Map.of("writer.group.id", name + "-b")), metrics).start()) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> metrics.find("seckill_writer_batch_size").summary() != null
                            && metrics.find("seckill_writer_batch_size")
                                            .summary()
                                            .totalAmount()
                                    >= 12);
            long[] second = {
                query(app, "SELECT COUNT(*) FROM purchase_order"),
                query(app, "SELECT stock FROM sale WHERE goods_id = 1001"),
                query(app, "SELECT COUNT(*) FROM stock_ledger")
            };
            assertThat(second).containsExactly(first);
            assertThat(metrics.get("seckill_orders_written").counter().count())
                    .as("nothing new written on redelivery")
                    .isZero();
        }
    }

    @Test
    void aRecordThatCanNeverBeWrittenGoesToTheDlq_andTheNextOneIsWritten() throws Exception {
        producer.send(new ProducerRecord<>(topics.ledger(), "1001", "{\"type\":".getBytes(StandardCharsets.UTF_8)))
                .get();
        purchase(deducted("x".repeat(64), 1001, 5, 1, 1), null);
        purchase(deducted("dup-user", 1001, 5, 0, 2), null); // the same buyer's second live purchase of the goods
        purchase(deducted("good", 1001, 6, 0, 3), null);
        try (OrderWriterApp app = new OrderWriterApp(settings, new SimpleMeterRegistry()).start()) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> query(app, "SELECT COUNT(*) FROM purchase_order WHERE request_id = 'good'") == 1);
            assertThat(query(app, "SELECT COUNT(*) FROM purchase_order")).isEqualTo(2);
            assertThat(query(app, "SELECT stock FROM sale WHERE goods_id = 1001"))
                    .as("the poison changed no stock")
                    .isEqualTo(-2);
        }
        List<String> errors = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, byte[]>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        settings.kafkaBootstrap(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        name + "-dlq",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topics.dlq()));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200))
                        .forEach(r -> errors.add(
                                new String(r.headers().lastHeader("error").value())));
                return errors.size() >= 2;
            });
        }
        assertThat(errors).anySatisfy(e -> assertThat(e).startsWith("malformed LedgerEntry"));
        assertThat(errors)
                .anySatisfy(e -> assertThat(e).contains("cannot be written").contains("uk_order_live_buyer"));
    }

    @Test
    void twoWritersSharingThePartitions_oneJoiningAndOneLeavingMidStream_writeEveryPurchaseOnce() throws Exception {
        int perGoods = 400;
        long[] goods = {2001, 2002, 2003, 2004, 2005, 2006};
        Settings shared = settings.and(Map.of("writer.group.id", name + "-shared", "writer.batch.max", "50"));
        Thread feeder = new Thread(() -> {
            try {
                for (int i = 0; i < perGoods; i++) {
                    for (long g : goods) purchase(deducted("h" + g + "-" + i, g, i + 1, perGoods - i - 1, i + 1), null);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        SimpleMeterRegistry metricsA = new SimpleMeterRegistry();
        SimpleMeterRegistry metricsB = new SimpleMeterRegistry();
        OrderWriterApp a = new OrderWriterApp(shared, metricsA).start();
        OrderWriterApp b = null;
        try {
            feeder.start();
            await().atMost(Duration.ofSeconds(60))
                    .ignoreException(MeterNotFoundException.class) // born at its first write
                    .until(() ->
                            metricsA.get("seckill_orders_written").counter().count() >= 300);
            b = new OrderWriterApp(shared, metricsB).start(); // a rebalance while batches are in flight
            OrderWriterApp second = b;
            await().atMost(Duration.ofSeconds(60))
                    .ignoreException(MeterNotFoundException.class) // born at its first write
                    .until(() ->
                            metricsB.get("seckill_orders_written").counter().count() > 0
                                    || query(second, "SELECT COUNT(*) FROM purchase_order")
                                            >= goods.length * perGoods / 2);
            a.close(); // and a revocation: A hands over what it polled
            feeder.join();
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> query(second, "SELECT COUNT(*) FROM purchase_order") == goods.length * perGoods);
            assertThat(query(b, "SELECT COUNT(DISTINCT request_id) FROM purchase_order"))
                    .isEqualTo(goods.length * perGoods);
            assertThat(query(b, "SELECT COUNT(*) FROM stock_ledger WHERE type = 'DEDUCTED'"))
                    .isEqualTo(goods.length * perGoods);
            for (long g : goods) {
                assertThat(query(b, "SELECT stock FROM sale WHERE goods_id = " + g))
                        .as("goods " + g)
                        .isEqualTo(-perGoods);
            }
        } finally {
            a.close();
            if (b != null) b.close();
        }
    }
}
