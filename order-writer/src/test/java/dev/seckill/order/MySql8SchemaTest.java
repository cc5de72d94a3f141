package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.kit.config.Settings;
import dev.seckill.order.db.Database;
import dev.seckill.order.store.Deduction;
import dev.seckill.order.store.Orders;
import dev.seckill.order.store.StockLedger;
import dev.seckill.stack.DockerEngine;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.testcontainers.mysql.MySQLContainer;

/**
 * The schema and the writer's SQL on a real MySQL 8 (Testcontainers): runs where a Docker engine answers and is
 * skipped cleanly elsewhere. The same statements run on MariaDB 10.11 in every other test.
 */
class MySql8SchemaTest {

    static LedgerEntry deducted(String rid, long goods, long user, long stockAfter) {
        return Purchases.deducted(goods, rid, user, stockAfter, Purchases.COMMAND_OFFSET, Purchases.OPEN_OFFSET);
    }

    static long query(Connection c, String sql) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void migrationsAndTheWritersStatementsWorkOnMySql8() throws Exception {
        assumeTrue(DockerEngine.available(), "no Docker engine here: the MySQL 8 run is skipped");
        try (MySQLContainer mysql = new MySQLContainer("mysql:8.0")) {
            mysql.start();
            Settings s = Settings.with(Map.of(
                    Settings.DB_URL,
                    mysql.getJdbcUrl(),
                    Settings.DB_USER,
                    mysql.getUsername(),
                    Settings.DB_PASSWORD,
                    mysql.getPassword()));
            try (HikariDataSource db = Database.open(s, "mysql8-test");
                    Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                StockLedger.applyLedger(
                        c,
                        LedgerEntry.of("open-1", 1001, LedgerType.OPENED, 10, null, null, null, 10, Instant.now()),
                        0,
                        null);
                LedgerEntry a = deducted("a", 1001, 1, 9);
                List<Deduction> batch =
                        List.of(Purchases.deduction(a, "t-a"), Purchases.deduction(deducted("b", 1001, 2, 8), null));
                assertThat(Orders.recordAll(c, batch)).isEqualTo(2);
                c.commit();
                // redelivery through the per-record path: nothing new
                assertThat(Orders.record(c, Purchases.deduction(a, "t-a"))).isFalse();
                c.commit();
                assertThat(query(c, "SELECT COUNT(*) FROM purchase_order")).isEqualTo(2);
                assertThat(query(c, "SELECT stock FROM sale WHERE goods_id = 1001"))
                        .isEqualTo(8);
                assertThat(query(c, "SELECT COUNT(*) FROM stock_ledger")).isEqualTo(3);
                // one live order per (goods, user): the unique key holds on MySQL too
                assertThatThrownBy(() ->
                                Orders.recordAll(c, List.of(Purchases.deduction(deducted("a2", 1001, 1, 7), null))))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e ->
                                assertThat(((SQLException) e).getSQLState()).startsWith("23"));
                c.rollback();
            }
        }
    }
}
