package dev.seckill.infra.ops.report;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.reconcile.LedgerReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntConsumer;

/**
 * Reads what a report needs of one namespace: the outcome topics and the ledger from their beginning (read_committed;
 * records that do not parse are counted and skipped), and the order lifecycle from the database.
 */
public final class ReportSource {
    private final Settings settings;
    private final Topics topics;
    private int unreadable;

    public ReportSource(Settings settings) {
        this.settings = settings;
        this.topics = new Topics(settings.topicPrefix());
    }

    /** A report per goods (only {@code onlyGoods} when given); {@code progress} gets the records read so far. */
    public List<GoodsReport> read(Long onlyGoods, IntConsumer progress) throws SQLException {
        List<Outcome> outcomes = new ArrayList<>();
        int[] read = {0};
        for (String topic : topics.outcomes()) {
            LedgerReader.readAll(settings, topic, r -> {
                Outcome o = parse(r.value(), Outcome.class);
                if (o != null && (onlyGoods == null || o.goodsId() == onlyGoods)) outcomes.add(o);
                if (++read[0] % 10_000 == 0) progress.accept(read[0]);
            });
        }
        List<LedgerEntry> ledger = new ArrayList<>();
        LedgerReader.readAll(settings, topics.ledger(), r -> {
            LedgerEntry e = parse(r.value(), LedgerEntry.class);
            if (e != null && (onlyGoods == null || e.goodsId() == onlyGoods)) ledger.add(e);
            if (++read[0] % 10_000 == 0) progress.accept(read[0]);
        });
        progress.accept(read[0]);
        TreeSet<Long> goods = new TreeSet<>();
        outcomes.forEach(o -> goods.add(o.goodsId()));
        ledger.forEach(e -> goods.add(e.goodsId()));
        List<GoodsReport> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(
                JdbcUrls.withDriverDefaults(settings.dbUrl()), settings.dbUser(), settings.dbPassword())) {
            for (long g : goods) {
                out.add(GoodsReport.of(
                        g,
                        outcomes.stream().filter(o -> o.goodsId() == g).toList(),
                        ledger.stream().filter(e -> e.goodsId() == g).toList(),
                        orders(c, g)));
            }
        }
        return out;
    }

    /** Records on the topics that were not an outcome or a ledger entry (poison that reached them is not expected). */
    public int unreadable() {
        return unreadable;
    }

    private <T> T parse(byte[] value, Class<T> type) {
        try {
            return Json.read(value, type);
        } catch (RuntimeException e) {
            unreadable++;
            return null;
        }
    }

    private static Map<String, Long> orders(Connection c, long goods) throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT status, COUNT(*) FROM purchase_order WHERE goods_id = ? GROUP BY status")) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString(1), rs.getLong(2));
            }
        } catch (SQLException e) {
            if (!"42S02".equals(e.getSQLState())) throw e; // no order table: a namespace whose writer never ran
        }
        return out;
    }
}
