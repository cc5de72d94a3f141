package dev.seckill.infra.bench.strategies;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The database connections a strategy keeps busy, seen from the server (its process list, not the strategy's own
 * pool): every {@link #EVERY_MS} ms the connections to the run's database that are running a statement or holding
 * one open in a transaction ({@code COMMAND <> 'Sleep'}), and the peak.
 */
final class ConnectionPeak implements AutoCloseable {
    static final long EVERY_MS = 20;

    private final AtomicInteger peakActive = new AtomicInteger();
    private final AtomicInteger peakOpen = new AtomicInteger();
    private final Thread sampler;
    private volatile boolean running = true;

    ConnectionPeak(String jdbcUrl, String user, String password, String database) {
        sampler = new Thread(() -> sample(jdbcUrl, user, password, database), "db-connection-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample(String url, String user, String password, String database) {
        try (Connection c = DriverManager.getConnection(url, user, password);
                PreparedStatement q = c.prepareStatement("SELECT COUNT(*), COALESCE(SUM(COMMAND <> 'Sleep'), 0)"
                        + " FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()")) {
            q.setString(1, database);
            while (running) {
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    peakOpen.accumulateAndGet(rs.getInt(1), Math::max);
                    peakActive.accumulateAndGet(rs.getInt(2), Math::max);
                }
                Thread.sleep(EVERY_MS); // a sampling period, not a synchronisation
            }
        } catch (SQLException | InterruptedException e) {
            // the run is over or the server went away: the peak so far stands
        }
    }

    int peakActive() {
        return peakActive.get();
    }

    int peakOpen() {
        return peakOpen.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join(5_000);
    }
}
