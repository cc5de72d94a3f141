package dev.seckill.infra.bench.strategies;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The synchronous design's asynchronous half (section 3, step 4): consumes the order messages and writes each poll's
 * orders and the DB stock change in one transaction, idempotent by the message's partition:offset ("消费端做幂等 …
 * 唯一索引防重"), offsets committed after the DB commit.
 */
final class SyncOrderWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SyncOrderWriter.class);

    private final KafkaConsumer<String, String> consumer;
    private final DataSource db;
    private final Thread thread;
    private volatile boolean running = true;

    SyncOrderWriter(Settings settings, String topic, String group, DataSource db) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = KafkaClients.consumer(settings, p, new StringDeserializer(), new StringDeserializer());
        this.consumer.subscribe(List.of(topic));
        this.db = db;
        this.thread = new Thread(this::loop, "sync-order-writer");
        this.thread.start();
    }

    private void loop() {
        try {
            while (running) {
                ConsumerRecords<String, String> batch = consumer.poll(Duration.ofMillis(100));
                if (batch.isEmpty()) continue;
                write(batch);
                consumer.commitSync();
            }
        } catch (WakeupException closing) {
            // close() asked
        } catch (Exception e) {
            LOG.error("sync order writer stopped: {}", e.toString());
        } finally {
            consumer.close();
        }
    }

    private void write(ConsumerRecords<String, String> batch) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            Map<Long, Integer> taken = new HashMap<>();
            try (PreparedStatement insert =
                    c.prepareStatement(BaselineOrders.INSERT.replace("INSERT", "INSERT IGNORE"))) {
                for (ConsumerRecord<String, String> r : batch) {
                    String[] goodsUser = r.value().split(",");
                    long goods = Long.parseLong(goodsUser[0]);
                    long user = Long.parseLong(goodsUser[1]);
                    BaselineOrders.bind(insert, "sync-" + r.partition() + "-" + r.offset(), goods, user);
                    if (insert.executeUpdate() == 1) taken.merge(goods, 1, Integer::sum);
                }
            }
            try (PreparedStatement stock = c.prepareStatement("UPDATE sale SET stock = stock - ? WHERE goods_id = ?")) {
                for (Map.Entry<Long, Integer> e : taken.entrySet()) {
                    stock.setInt(1, e.getValue());
                    stock.setLong(2, e.getKey());
                    stock.executeUpdate();
                }
            }
            c.commit();
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(10_000);
    }
}
