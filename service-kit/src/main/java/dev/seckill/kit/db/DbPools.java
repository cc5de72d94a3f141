package dev.seckill.kit.db;

import com.zaxxer.hikari.HikariConfig;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.Unreachable;

/**
 * The part of a HikariCP pool every service with a database shares: the configured server (one readable line when it
 * does not answer), the URL with the connector settings the services rely on ({@link JdbcUrls}), the user, a pool size,
 * and no failure at construction (a pool waits for a server that comes back). What a service adds (minimum idle,
 * connection timeout, migrations) it sets on the returned config itself.
 */
public final class DbPools {
    private DbPools() {}

    public static HikariConfig config(Settings settings, String poolName, int maximumPoolSize) {
        Unreachable.requireTcp("MySQL", Unreachable.jdbcHostPort(settings.dbUrl()), "start it or set SECKILL_DB_URL");
        HikariConfig c = new HikariConfig();
        c.setPoolName(poolName);
        c.setJdbcUrl(JdbcUrls.withDriverDefaults(settings.dbUrl())); // TLS off on loopback only
        c.setUsername(settings.dbUser());
        c.setPassword(settings.dbPassword());
        c.setMaximumPoolSize(maximumPoolSize);
        c.setInitializationFailTimeout(-1);
        return c;
    }
}
