package dev.seckill.order.lifecycle;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The database's clock, the one the order lifecycle's times are judged by: an order's {@code created_at} (its deadline's
 * start) is the database's {@code CURRENT_TIMESTAMP(3)}, so "now" for the deadline is the database's too, never the
 * writer host's (two clocks would cancel early or late by their skew). Epoch milliseconds via {@code UNIX_TIMESTAMP},
 * which the sweeper turns back with {@code FROM_UNIXTIME} in the same session time zone.
 */
final class DbClock {
    private DbClock() {}

    static long nowMs(DataSource db) throws SQLException {
        try (Connection c = db.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT UNIX_TIMESTAMP(NOW(3))")) {
            rs.next();
            return rs.getBigDecimal(1).movePointRight(3).longValue();
        }
    }
}
