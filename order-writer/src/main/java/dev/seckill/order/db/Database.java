package dev.seckill.order.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.config.Unreachable;
import dev.seckill.contracts.db.JdbcUrls;
import org.flywaydb.core.Flyway;

/** The MySQL-compatible database: a HikariCP pool and the Flyway migrations that own the schema. */
public final class Database {
    private Database() {}

    /** Opens the pool (failing with one readable line when the server does not answer) and migrates the schema. */
    public static HikariDataSource open(Settings settings, String poolName) {
        Unreachable.requireTcp("MySQL", Unreachable.jdbcHostPort(settings.dbUrl()), "start it or set SECKILL_DB_URL");
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(JdbcUrls.withDriverDefaults(settings.dbUrl()));
        config.setUsername(settings.dbUser());
        config.setPassword(settings.dbPassword());
        config.setMaximumPoolSize(settings.getInt("db.pool.size", 8));
        config.setMinimumIdle(1);
        config.setConnectionTimeout(settings.getLong("db.connect.timeout.ms", 5000));
        config.setInitializationFailTimeout(-1);
        config.setAutoCommit(true);
        HikariDataSource ds = new HikariDataSource(config);
        Flyway.configure().dataSource(ds).locations("classpath:db/migration").load().migrate();
        return ds;
    }

}
