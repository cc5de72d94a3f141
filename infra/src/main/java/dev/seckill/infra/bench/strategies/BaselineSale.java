package dev.seckill.infra.bench.strategies;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.order.db.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import redis.clients.jedis.UnifiedJedis;

/**
 * A baseline's sale, set up before its server starts: the pipeline's schema (Flyway, the order-writer's migrations) in
 * the run's own database plus the version column the optimistic lock needs, the goods' {@code sale} row with its
 * stock, and for the synchronous design the Redis stock ("预热": set, with no leftover buyers or sold-out mark) and its
 * order topic.
 */
final class BaselineSale {
    private BaselineSale() {}

    /** A sale of each goods given, with its stock. */
    static void prepare(Namespace ns, String strategy, Map<Long, Long> stockByGoods) throws Exception {
        try (HikariDataSource db = Database.open(ns.settings(), "baseline-setup");
                Connection c = db.getConnection()) {
            try (Statement st = c.createStatement()) {
                st.execute("ALTER TABLE sale ADD COLUMN version BIGINT NOT NULL DEFAULT 0");
            }
            try (PreparedStatement open = c.prepareStatement(
                    "INSERT INTO sale (goods_id, opened_stock, stock, status) VALUES (?, ?, ?, 'OPEN')")) {
                for (Map.Entry<Long, Long> sale : stockByGoods.entrySet()) {
                    open.setLong(1, sale.getKey());
                    open.setLong(2, sale.getValue());
                    open.setLong(3, sale.getValue());
                    open.executeUpdate();
                }
            }
        }
        if (!strategy.equals("sync")) return;
        SyncKeys keys = new SyncKeys(ns.settings().redisPrefix());
        try (UnifiedJedis redis = RedisConnections.open(ns.settings())) {
            for (Map.Entry<Long, Long> sale : stockByGoods.entrySet()) {
                redis.del(keys.buyers(sale.getKey()), keys.soldOut(sale.getKey()));
                redis.set(keys.stock(sale.getKey()), Long.toString(sale.getValue()));
            }
        }
        try (Admin admin = KafkaClients.admin(ns.settings())) {
            String orders = StrategyMain.ordersTopic(ns.settings());
            // as many partitions as the pipeline's topics in the same run: the designs compared on equal terms
            int partitions = ns.settings().get(SharedSettings.TOPIC_PARTITIONS);
            admin.createTopics(List.of(new NewTopic(orders, Optional.of(partitions), Optional.empty())))
                    .all()
                    .get(60, TimeUnit.SECONDS);
            // the strategy's idempotent producer must not meet a partition its leader has not finished creating: its
            // first batch refused NOT_LEADER, it spins on OUT_OF_ORDER_SEQUENCE_NUMBER (KAFKA-15591)
            TopicProvisioner.awaitWritable(admin, List.of(orders));
        }
    }
}
