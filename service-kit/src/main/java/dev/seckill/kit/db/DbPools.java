package dev.seckill.kit.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.Unreachable;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The part of a HikariCP pool every service with a database shares: the configured server (one readable line when it
 * does not answer), the URL with the connector settings the services rely on ({@link JdbcUrls}), the user, a pool size,
 * and no failure at construction (a pool waits for a server that comes back), and, for a service, the pool's own series
 * on its registry. What a service adds (minimum idle, connection timeout, migrations) it sets on the returned config
 * itself.
 */
public final class DbPools {
    private DbPools() {}

    /** A pool publishing nothing: for tools and tests (a service's pool is measured, below). */
    public static HikariConfig config(Settings settings, String poolName, int maximumPoolSize) {
        return config(settings, poolName, maximumPoolSize, null);
    }

    /**
     * @param metrics where the pool's series go, tagged {@code pool=<poolName>}: {@code hikaricp_connections_pending}
     *     (threads waiting for a connection: the database slow or locked), {@code _active}, {@code _idle},
     *     {@code hikaricp_connections_acquire_seconds}, {@code hikaricp_connections_timeout_total}; null: none
     */
    public static HikariConfig config(Settings settings, String poolName, int maximumPoolSize, MeterRegistry metrics) {
        Unreachable.requireTcp("MySQL", Unreachable.jdbcHostPort(settings.dbUrl()), "start it or set SECKILL_DB_URL");
        HikariConfig c = new HikariConfig();
        c.setPoolName(poolName);
        c.setJdbcUrl(JdbcUrls.withDriverDefaults(settings.dbUrl())); // TLS off on loopback only
        c.setUsername(settings.dbUser());
        c.setPassword(settings.dbPassword());
        c.setMaximumPoolSize(maximumPoolSize);
        c.setInitializationFailTimeout(-1);
        if (metrics != null) c.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(metrics));
        return c;
    }
}
