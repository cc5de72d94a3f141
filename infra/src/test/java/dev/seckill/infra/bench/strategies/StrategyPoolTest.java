package dev.seckill.infra.bench.strategies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.kit.config.Settings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Given a namespace whose database is not there (dropped, or not yet prepared), when a strategy's pool connects, then it
 * fails instead of creating the database: a pool still connecting when the test drops the database must not bring it
 * back (a CI run found {@code seckill_strat_test_optimistic_*} left behind that way).
 */
class StrategyPoolTest {

    @Test
    void aStrategysPoolNeverCreatesItsDatabase() throws Exception {
        Namespace ns = Namespace.create(
                Settings.with(Map.of()),
                "strat-pool-" + UUID.randomUUID().toString().substring(0, 8));
        try {
            try (HikariDataSource pool = StrategyMain.pool(ns.settings(), "strat-pool", 1)) {
                assertThatThrownBy(pool::getConnection).isInstanceOf(SQLException.class);
            }
            assertThat(exists(ns)).as("database %s", ns.database()).isFalse();
        } finally {
            ns.dropDatabase();
        }
    }

    private static boolean exists(Namespace ns) throws SQLException {
        String url = ns.settings().dbUrl();
        String server = url.substring(0, url.indexOf('/', "jdbc:mysql://".length()));
        try (Connection c = DriverManager.getConnection(server + "/?sslMode=DISABLED", "root", "");
                ResultSet rs = c.getMetaData().getCatalogs()) {
            while (rs.next()) if (rs.getString(1).equals(ns.database())) return true;
            return false;
        }
    }
}
