package dev.seckill.order;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.kit.config.Settings;
import dev.seckill.order.db.Database;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

/** A database of the test's own on the machine's MySQL-compatible server, migrated; dropped on close. */
final class TestDb implements AutoCloseable {
    static final String SERVER = System.getenv().getOrDefault("SECKILL_TEST_DB_SERVER", "jdbc:mysql://127.0.0.1:3306");
    final String name = "seckill_ow_" + UUID.randomUUID().toString().substring(0, 8);
    final HikariDataSource db;

    TestDb() {
        db = Database.open(
                Settings.with(Map.of(Settings.DB_URL, SERVER + "/" + name + "?createDatabaseIfNotExist=true")), name);
    }

    long one(String sql, Object... args) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new SQLException("no row: " + sql);
                return rs.getLong(1);
            }
        }
    }

    String text(String sql, Object... args) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Override
    public void close() throws SQLException {
        db.close();
        try (Connection c = DriverManager.getConnection(SERVER + "/?sslMode=DISABLED", "root", "")) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + name);
        }
    }
}
