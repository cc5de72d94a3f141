package dev.seckill.reconcile;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.redis.RedisKeys;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import redis.clients.jedis.UnifiedJedis;

/**
 * Compares, per goods, the ledger fold with Redis and the DB (read-only: the report of a dry run).
 * Meant for a drained pipeline; while work is in flight some drift is expected.
 */
public final class DriftCheck {
    private final String bootstrap;
    private final Topics topics;
    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final DataSource db;

    public DriftCheck(String bootstrap, Topics topics, UnifiedJedis redis, RedisKeys keys, DataSource db) {
        this.bootstrap = bootstrap;
        this.topics = topics;
        this.redis = redis;
        this.keys = keys;
        this.db = db;
    }

    /** All goods in the ledger, or only {@code onlyGoods} when it is not null. */
    public List<GoodsDrift> run(Long onlyGoods) throws SQLException {
        LedgerFold fold = LedgerReader.fold(bootstrap, topics.ledger());
        Map<Long, LedgerFold.Goods> goods = new TreeMap<>(fold.goods());
        List<GoodsDrift> rows = new ArrayList<>();
        try (Connection c = db.getConnection()) {
            for (var e : goods.entrySet()) {
                long id = e.getKey();
                if (onlyGoods != null && onlyGoods != id) continue;
                LedgerFold.Goods g = e.getValue();
                String stock = redis.get(keys.stock(id));
                long buyers = redis.hlen(keys.buyers(id));
                Long[] live = liveOrders(c, id);
                rows.add(new GoodsDrift(id, g.opened, g.deducted, g.released, g.expectedStock(), g.liveBuyers.size(),
                        stock == null ? null : Long.parseLong(stock), stock == null && buyers == 0 ? null : buyers,
                        single(c, "SELECT stock FROM sale WHERE goods_id = ?", id), live[0], live[1],
                        single(c, "SELECT SUM(CASE type WHEN 'DEDUCTED' THEN -quantity WHEN 'CLOSED' THEN 0 "
                                + "WHEN 'RESTORED' THEN 0 ELSE quantity END) FROM stock_ledger WHERE goods_id = ?", id)));
            }
        }
        return rows;
    }

    private static Long[] liveOrders(Connection c, long goodsId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*), COALESCE(SUM(quantity), 0) FROM purchase_order WHERE goods_id = ? AND live_user_id IS NOT NULL")) {
            ps.setLong(1, goodsId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }

    private static Long single(Connection c, String sql, long goodsId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, goodsId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                long v = rs.getLong(1);
                return rs.wasNull() ? null : v;
            }
        }
    }

    /** A fixed-width table: one row per goods, each source side by side, and a verdict. */
    public static String render(List<GoodsDrift> rows) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("%-10s %8s %8s %8s | %8s %8s | %8s %8s | %8s %8s %8s | %s%n", "goods", "opened", "deducted",
                "released", "ledger", "buyers", "redis", "buyers", "db", "orders", "dbLedger", "verdict"));
        for (GoodsDrift d : rows) {
            b.append(String.format("%-10d %8d %8d %8d | %8d %8d | %8s %8s | %8s %8s %8s | %s%n", d.goodsId(), d.opened(),
                    d.deducted(), d.released(), d.ledgerStock(), d.ledgerLiveBuyers(), str(d.redisStock()), str(d.redisBuyers()),
                    str(d.dbStock()), str(d.dbLiveOrders()), str(d.dbLedgerStock()), d.verdict()));
        }
        return b.toString();
    }

    private static String str(Long v) { return v == null ? "-" : v.toString(); }
}
