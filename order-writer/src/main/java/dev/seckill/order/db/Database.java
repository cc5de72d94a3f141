package dev.seckill.order.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.DbPools;
import dev.seckill.order.OrderWriterSettings;
import io.micrometer.core.instrument.MeterRegistry;
import org.flywaydb.core.Flyway;

/** The MySQL-compatible database: a HikariCP pool and the Flyway migrations that own the schema. */
public final class Database {
    private Database() {}

    /** Opens the pool (failing with one readable line when the server does not answer) and migrates the schema. */
    public static HikariDataSource open(Settings settings, String poolName) {
        return open(settings, poolName, null);
    }

    /** As above, the pool's series ({@code hikaricp_*}, tagged with its name) on {@code metrics}; null: none. */
    public static HikariDataSource open(Settings settings, String poolName, MeterRegistry metrics) {
        HikariConfig config =
                DbPools.config(settings, poolName, settings.get(OrderWriterSettings.DB_POOL_SIZE), metrics);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(settings.get(OrderWriterSettings.DB_CONNECT_TIMEOUT_MS));
        config.setAutoCommit(true);
        HikariDataSource ds = new HikariDataSource(config);
        Flyway.configure()
                .dataSource(ds)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        return ds;
    }
}
