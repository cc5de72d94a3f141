package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.order.store.Orders;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * V6 on a database written by the writer before it (DEDUCTED op_ids {@code deduct:<requestId>}): the rows keep their
 * claim under {@code deduct:<goodsId>:<requestId>}, so an outcome redelivered after the upgrade is still a no-op.
 */
class MigrationV6Test {
    final String name = "seckill_v6_" + UUID.randomUUID().toString().substring(0, 8);
    final String url = TestDb.SERVER + "/" + name + "?createDatabaseIfNotExist=true&sslMode=DISABLED";

    @AfterEach
    void drop() throws Exception {
        try (Connection c = DriverManager.getConnection(TestDb.SERVER + "/?sslMode=DISABLED", "root", "")) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + name);
        }
    }

    Flyway flyway(String target) {
        return Flyway.configure()
                .dataSource(url, "root", "")
                .locations("classpath:db/migration")
                .target(target)
                .load();
    }

    static long one(Connection c, String sql) throws Exception {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void deductionsWrittenBeforeV6KeepTheirClaimUnderTheGoodsScopedOpId() throws Exception {
        flyway("5").migrate();
        try (Connection c = DriverManager.getConnection(url, "root", "")) {
            Statement s = c.createStatement();
            s.executeUpdate("INSERT INTO sale (goods_id, opened_stock, stock) VALUES (6001, 10, 8)");
            // two purchases as the old writer stored them; the second's requestId looks like a goods-scoped one
            s.executeUpdate("INSERT INTO purchase_order (order_id, request_id, goods_id, user_id, quantity, status, "
                    + "live_user_id) VALUES (1, 'old-1', 6001, 1, 1, 'CREATED', 1), "
                    + "(2, '6001:old-1', 6001, 2, 1, 'CREATED', 2)");
            s.executeUpdate("INSERT INTO stock_ledger (op_id, goods_id, type, quantity, user_id, request_id, order_id, "
                    + "stock_after) VALUES ('deduct:old-1', 6001, 'DEDUCTED', 1, 1, 'old-1', 1, 9), "
                    + "('deduct:6001:old-1', 6001, 'DEDUCTED', 1, 2, '6001:old-1', 2, 8)");
        }
        flyway("latest").migrate();
        try (Connection c = DriverManager.getConnection(url, "root", "")) {
            assertThat(one(c, "SELECT order_id FROM stock_ledger WHERE op_id = 'deduct:6001:old-1'"))
                    .isEqualTo(1);
            assertThat(one(c, "SELECT order_id FROM stock_ledger WHERE op_id = 'deduct:6001:6001:old-1'"))
                    .isEqualTo(2);
            c.setAutoCommit(false);
            assertThat(Orders.record(c, Purchases.deduction(Purchases.deducted(6001, "old-1", 1, 9, 1, 0), null)))
                    .as("a purchase written before the upgrade, redelivered after it")
                    .isFalse();
            assertThat(Orders.record(c, Purchases.deduction(6002, "old-1", 1)))
                    .as("the same requestId on another goods")
                    .isTrue();
            c.commit();
            assertThat(one(c, "SELECT stock FROM sale WHERE goods_id = 6001")).isEqualTo(8);
            assertThat(one(c, "SELECT COUNT(*) FROM purchase_order WHERE request_id = 'old-1'"))
                    .isEqualTo(2);
        }
    }
}
