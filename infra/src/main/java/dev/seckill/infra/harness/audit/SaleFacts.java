package dev.seckill.infra.harness.audit;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.infra.harness.buyers.BuyerLoad;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.reconcile.LedgerReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.UnifiedJedis;

/**
 * What one goods' sale left, read once after it drained, for {@link SaleAudit}: its outcomes and ledger entries (the
 * topics), its stock in Redis and in the DB, its order rows, the requestIds the gateway acknowledged and what every
 * buyer was told. {@code read} names the sources a sale had (a baseline has no topics, a drill no buyers' answers);
 * the checks of a source not read are not run.
 *
 * @param opened units the sale opened with: the ledger's OPENED entries, or the stock a baseline was given
 */
public record SaleFacts(
        long goodsId,
        Set<Source> read,
        long opened,
        List<Outcome> outcomes,
        List<LedgerEntry> ledger,
        Long redisStock,
        Long dbStock,
        List<OrderRow> orders,
        Set<String> acknowledged,
        List<Told> told) {

    /** Where a fact comes from. */
    public enum Source {
        TOPICS,
        REDIS,
        DB,
        ACKNOWLEDGED,
        BUYERS
    }

    /** One row of {@code purchase_order}. */
    public record OrderRow(String requestId, long userId, long quantity, String status) {
        public boolean live() {
            return status.equals("CREATED") || status.equals("PAYING") || status.equals("PAID");
        }
    }

    /** What one request's buyer was told (SUCCESS, DUPLICATE, SOLD_OUT, ..., or null when never answered). */
    public record Told(long userId, String answer) {}

    /**
     * A pipeline's sale: the outcomes given (already read by the caller's {@code OutcomeLog}) or, when null, read from
     * the outcome topics; the ledger topic, the Redis stock and the DB.
     */
    public static SaleFacts ofPipeline(
            Settings s, UnifiedJedis redis, Connection db, long goods, List<Outcome> outcomes) throws SQLException {
        Topics topics = new Topics(s.topicPrefix());
        List<Outcome> ofGoods = new ArrayList<>();
        if (outcomes != null)
            outcomes.stream().filter(o -> o.goodsId() == goods).forEach(ofGoods::add);
        else
            for (String topic : topics.outcomes())
                LedgerReader.readAll(s, topic, r -> {
                    Outcome o = Json.read(r.value(), Outcome.class);
                    if (o.goodsId() == goods) ofGoods.add(o);
                });
        List<LedgerEntry> ledger = new ArrayList<>();
        LedgerReader.readAll(s, topics.ledger(), r -> {
            LedgerEntry e = Json.read(r.value(), LedgerEntry.class);
            if (e.goodsId() == goods) ledger.add(e);
        });
        long opened = ledger.stream()
                .filter(e -> e.type() == LedgerType.OPENED)
                .mapToLong(LedgerEntry::quantity)
                .sum();
        // a goods split into buckets keeps its units in each bucket's keys: the goods' Redis stock is their sum
        int buckets = ledger.stream().mapToInt(LedgerEntry::bucketCount).max().orElse(1);
        Long stock = null;
        for (int b = 0; b < buckets; b++) {
            String units = redis.get(new RedisKeys(s.redisPrefix()).stock(goods, b));
            if (units != null) stock = (stock == null ? 0 : stock) + Long.parseLong(units);
        }
        return new SaleFacts(
                goods,
                EnumSet.of(Source.TOPICS, Source.REDIS, Source.DB),
                opened,
                ofGoods,
                ledger,
                stock,
                dbStock(db, goods),
                orders(db, goods),
                Set.of(),
                List.of());
    }

    /** A sale on a pipeline run as processes: its outcomes and ledger from the topics, Redis (opened here), the DB. */
    public static SaleFacts ofPipeline(Settings s, Connection db, long goods) throws SQLException {
        try (UnifiedJedis redis = RedisConnections.open(s)) {
            return ofPipeline(s, redis, db, goods, null);
        }
    }

    /** A sale known only by its database (a baseline strategy's): its order rows and stock, {@code stock} opened. */
    public static SaleFacts ofDatabase(Connection db, long goods, long stock) throws SQLException {
        return new SaleFacts(
                goods,
                EnumSet.of(Source.DB),
                stock,
                List.of(),
                List.of(),
                null,
                dbStock(db, goods),
                orders(db, goods),
                Set.of(),
                List.of());
    }

    /** These facts and the requestIds the gateway acknowledged (202): each must have its outcome. */
    public SaleFacts acknowledged(Set<String> ids) {
        return new SaleFacts(
                goodsId, with(Source.ACKNOWLEDGED), opened, outcomes, ledger, redisStock, dbStock, orders, ids, told);
    }

    /** These facts and what every buyer of the load was told. */
    public SaleFacts told(BuyerLoad load) {
        List<Told> answers = new ArrayList<>();
        for (int i = 0; i < load.outcome.length; i++) answers.add(new Told(load.user(i), load.outcome[i]));
        return told(answers);
    }

    /** These facts and what the buyers were told, one answer a request. */
    public SaleFacts told(List<Told> answers) {
        return new SaleFacts(
                goodsId,
                with(Source.BUYERS),
                opened,
                outcomes,
                ledger,
                redisStock,
                dbStock,
                orders,
                acknowledged,
                answers);
    }

    private Set<Source> with(Source s) {
        Set<Source> out = EnumSet.copyOf(read);
        out.add(s);
        return out;
    }

    /** The live orders' rows. */
    public List<OrderRow> liveOrders() {
        return orders.stream().filter(OrderRow::live).toList();
    }

    /** The units left as the ledger folds them: opened − deducted + released. */
    public long fold() {
        return ledger.stream().mapToLong(LedgerEntry::stockDelta).sum();
    }

    private static List<OrderRow> orders(Connection c, long goods) throws SQLException {
        List<OrderRow> rows = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement(
                "SELECT request_id, user_id, quantity, status FROM purchase_order WHERE goods_id = ?")) {
            q.setLong(1, goods);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next())
                    rows.add(new OrderRow(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getString(4)));
            }
        }
        return rows;
    }

    private static Long dbStock(Connection c, long goods) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT stock FROM sale WHERE goods_id = ?")) {
            q.setLong(1, goods);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }
}
