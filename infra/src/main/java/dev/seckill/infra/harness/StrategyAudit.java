package dev.seckill.infra.harness;

import dev.seckill.infra.harness.buyers.Answer;
import dev.seckill.infra.harness.buyers.BuyerLoad;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/**
 * What a strategy's run left, read from its database after the orders drained, next to what its buyers were told:
 * units sold (live orders), oversold units (orders beyond the stock), duplicate buyers (orders beyond one per buyer,
 * plus SUCCESS answers beyond one per buyer), confirmed sales lost (a buyer answered SUCCESS with no order), and
 * false duplicates (a buyer told "already bought" who holds no order: a retry of a purchase whose order was lost).
 */
public record StrategyAudit(
        long sold,
        long stockLeft,
        long oversold,
        long duplicateBuyers,
        long confirmed,
        long lost,
        long falseDuplicates) {
    private static final String LIVE = "goods_id = ? AND status IN ('CREATED', 'PAYING', 'PAID')";

    public static StrategyAudit of(Connection c, long goodsId, long stock, BuyerLoad load) throws SQLException {
        Set<Long> holders = new HashSet<>();
        long sold = 0;
        try (PreparedStatement q = c.prepareStatement("SELECT user_id FROM purchase_order WHERE " + LIVE)) {
            q.setLong(1, goodsId);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    holders.add(rs.getLong(1));
                    sold++;
                }
            }
        }
        Set<Long> confirmed = new HashSet<>();
        long toldTwice = 0;
        for (int i = 0; i < load.outcome.length; i++)
            if (Answer.SUCCESS.name().equals(load.outcome[i]) && !confirmed.add(load.user(i))) toldTwice++;
        long lost = confirmed.stream().filter(u -> !holders.contains(u)).count();
        Set<Long> toldDuplicate = new HashSet<>();
        for (int i = 0; i < load.outcome.length; i++)
            if (Answer.DUPLICATE.name().equals(load.outcome[i])) toldDuplicate.add(load.user(i));
        long falseDuplicates =
                toldDuplicate.stream().filter(u -> !holders.contains(u)).count();
        return new StrategyAudit(
                sold,
                dbStock(c, goodsId),
                Math.max(0, sold - stock),
                sold - holders.size() + toldTwice,
                confirmed.size(),
                lost,
                falseDuplicates);
    }

    /** The number of live orders now (to see when the asynchronous writers have drained). */
    public static long liveOrders(Connection c, long goodsId) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT COUNT(*) FROM purchase_order WHERE " + LIVE)) {
            q.setLong(1, goodsId);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    public static Connection connect(String url, String user, String password) throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** Stock left in the DB's {@code sale} row. */
    public static long dbStock(Connection c, long goodsId) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT stock FROM sale WHERE goods_id = ?")) {
            q.setLong(1, goodsId);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
