package dev.seckill.order;

import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What an order-writer test needs of the real stack: the pipeline's topics under a prefix of its own on the test broker,
 * a database of its own on the machine's MariaDB/MySQL, a producer and an admin client; close() deletes the topics and
 * drops the database.
 */
final class WriterStack implements AutoCloseable {
    final String name = "ow_" + UUID.randomUUID().toString().substring(0, 8);
    final String database = "seckill_" + name;
    final Settings settings;
    final Topics topics;
    final Admin admin;
    final KafkaProducer<String, byte[]> producer;

    WriterStack(int partitions) {
        settings = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                name + ".",
                Settings.DB_URL,
                TestDb.SERVER + "/" + database + "?createDatabaseIfNotExist=true"));
        topics = new Topics(settings.topicPrefix());
        TopicProvisioner.ensure(settings, topics, partitions);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafkaBootstrap()));
        producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", settings.kafkaBootstrap(), "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    RecordMetadata send(String topic, String key, Object value) throws Exception {
        return producer.send(new ProducerRecord<>(topic, key, value instanceof byte[] b ? b : Json.write(value)))
                .get(30, TimeUnit.SECONDS);
    }

    /** A record as built, headers and all (e.g. {@link Purchases#onLedger}). */
    RecordMetadata send(ProducerRecord<String, byte[]> record) throws Exception {
        return producer.send(record).get(30, TimeUnit.SECONDS);
    }

    /** A record with an explicit timestamp (CreateTime): the time the event happened, whenever it is consumed. */
    RecordMetadata send(String topic, String key, Object value, long timestampMs) throws Exception {
        return producer.send(new ProducerRecord<>(topic, null, timestampMs, key, Json.write(value)))
                .get(30, TimeUnit.SECONDS);
    }

    String text(String sql, Object... args) throws Exception {
        try (Connection c =
                        DriverManager.getConnection(TestDb.SERVER + "/" + database + "?sslMode=DISABLED", "root", "");
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

    /** Every record on the commands topic so far, as text (what the sweeper and the payment forwarder sent). */
    List<String> commands() {
        List<String> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, byte[]>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        settings.kafkaBootstrap(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        name + "-commands-" + System.nanoTime(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
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
        producer.close();
        try {
            admin.deleteTopics(topics.all()).all().get(30, TimeUnit.SECONDS);
        } finally {
            admin.close();
            try (Connection c = DriverManager.getConnection(TestDb.SERVER + "/?sslMode=DISABLED", "root", "")) {
                c.createStatement().execute("DROP DATABASE IF EXISTS " + database);
            }
        }
    }
}
