package dev.seckill.reconcile;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.contracts.redis.RedisKeys;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * One reconcile cycle: fold the ledger (durably), then per goods compare the fold with Redis and the DB. A goods
 * whose partition has work in flight is reported IN_FLIGHT and never repaired. A settled goods that disagrees is
 * repaired, each repair written to reconcile_audit with its reason:
 * <ul>
 *   <li>Redis stock or buyers missing or wrong → a {@code restore} command through {@code <prefix>commands}, so the
 *       rebuild runs in the partition's serial order and never races a live decision;</li>
 *   <li>a live buyer in the ledger with no order row → the order is written (idempotent by request_id);</li>
 *   <li>a live order row with no SUCCESS behind it in the ledger → flagged, never deleted.</li>
 * </ul>
 * In dry-run mode it only reports.
 */
public final class Reconciler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

    /** One goods after a cycle: the sources side by side, whether it was settled, what was repaired. */
    public record Row(GoodsDrift drift, boolean settled, List<String> repairs) {
        public String verdict() { return settled ? drift.verdict() : "IN_FLIGHT"; }
    }

    private final Topics topics;
    private final RedisKeys keys;
    private final DataSource db;
    private final UnifiedJedis redis;
    private final Producer<String, byte[]> commands;
    private final MeterRegistry metrics;
    private final boolean dryRun;
    private final DurableLedgerFold fold;
    private final Admin admin;
    private final PipelineLag lag;
    private final KeyLifetime lifetime;
    private final Map<String, AtomicLong> driftGauges = new ConcurrentHashMap<>();
    private long cycles;

    public Reconciler(Settings settings, DataSource db, UnifiedJedis redis, Producer<String, byte[]> commands,
                      MeterRegistry metrics, boolean dryRun) throws SQLException {
        this.topics = new Topics(settings.topicPrefix());
        this.keys = new RedisKeys(settings.redisPrefix());
        this.db = db;
        this.redis = redis;
        this.commands = commands;
        this.metrics = metrics;
        this.dryRun = dryRun;
        this.fold = new DurableLedgerFold(settings.kafkaBootstrap(), topics.ledger(), db);
        this.admin = Admin.create(Map.of("bootstrap.servers", settings.kafkaBootstrap()));
        this.lag = new PipelineLag(admin, topics, settings);
        this.lifetime = KeyLifetime.from(settings);
        metrics.gauge("seckill_reconcile_ledger_lag", this, r -> r.fold.lag().values().stream().mapToLong(Long::longValue).sum());
    }

    /** Runs one cycle over every goods in the ledger (or only {@code onlyGoods}). */
    public List<Row> cycle(Long onlyGoods) throws Exception {
        cycles++;
        PipelineLag.Snapshot before = lag.snapshot();
        fold.catchUp();
        List<Row> rows = new ArrayList<>();
        try (Connection c = db.getConnection()) {
            List<Observed> observed = new ArrayList<>();
            for (long goods : goods(c)) {
                if (onlyGoods == null || onlyGoods == goods) observed.add(observe(c, goods));
            }
            // judged only now: a goods whose partition moved while its sources were read is in flight, not drifting
            PipelineLag.Snapshot after = lag.snapshot();
            for (Observed o : observed) {
                boolean settled = before.settledUntil(after, PipelineLag.partitionOf(o.drift().goodsId(), fold.partitionCount()));
                rows.add(settled ? repair(c, o) : new Row(o.drift(), false, List.of()));
            }
        }
        return rows;
    }

    /** One goods as read from every source, before any judgement. */
    private record Observed(GoodsDrift drift, Map<Long, String[]> holdings, Map<String, Long> liveOrders) {}

    private Observed observe(Connection c, long goods) throws Exception {
        long[] f = foldOf(c, goods); // opened, deducted, released, keys expire at (epoch ms; 0 when unknown)
        Map<Long, String[]> holdings = holdings(c, goods); // userId -> {requestId, quantity}
        Map<String, Long> liveOrders = liveOrders(c, goods); // requestId -> userId
        String stock = redis.get(keys.stock(goods));
        long buyers = redis.hlen(keys.buyers(goods));
        long ledgerStock = f[0] - f[1] + f[2];
        long liveUnits = 0;
        for (String[] h : holdings.values()) liveUnits += Long.parseLong(h[1]);
        GoodsDrift drift = new GoodsDrift(goods, f[0], f[1], f[2], ledgerStock, holdings.size(),
                stock == null ? null : Long.parseLong(stock), stock == null && buyers == 0 ? null : buyers,
                single(c, "SELECT stock FROM sale WHERE goods_id = ?", goods), (long) liveOrders.size(),
                single(c, "SELECT COALESCE(SUM(quantity), 0) FROM purchase_order WHERE goods_id = ? AND live_user_id IS NOT NULL", goods),
                single(c, "SELECT SUM(CASE type WHEN 'DEDUCTED' THEN -quantity WHEN 'CLOSED' THEN 0 WHEN 'RESTORED' THEN 0 "
                        + "ELSE quantity END) FROM stock_ledger WHERE goods_id = ?", goods), lifetime.retired(f[3]));
        if (drift.ended() && drift.dbAgrees()) {
            retireGauges(goods); // an ended, settled sale: its per-goods series end with it instead of piling up
        } else {
            gauge(goods, "redis", drift.ended() ? 0 : drift.redisStock() == null ? ledgerStock : drift.redisStock() - ledgerStock);
            gauge(goods, "db", drift.dbStock() == null ? ledgerStock : drift.dbStock() - ledgerStock);
        }
        return new Observed(drift, holdings, liveOrders);
    }

    private Row repair(Connection c, Observed o) throws Exception {
        GoodsDrift drift = o.drift();
        long goods = drift.goodsId();
        long ledgerStock = drift.ledgerStock();
        Map<Long, String[]> holdings = o.holdings();
        Map<String, Long> liveOrders = o.liveOrders();
        List<String> repairs = new ArrayList<>();

        if (!drift.redisAgrees()) {
            String why = "Redis stock " + drift.redisStock() + " / buyers " + drift.redisBuyers() + ", ledger says "
                    + ledgerStock + " / " + holdings.size();
            repairs.add(act(c, goods, "redis_drift", "restore_sent", why, () -> {
                Restore r = new Restore(goods, "reconcile-restore-" + goods + "-" + System.currentTimeMillis());
                commands.send(new ProducerRecord<>(topics.commands(), r.key(), CommandCodec.encode(r))).get(30, TimeUnit.SECONDS);
            }));
        }
        for (Map.Entry<Long, String[]> h : holdings.entrySet()) {
            String requestId = h.getValue()[0];
            if (liveOrders.containsKey(requestId) || orderExists(c, requestId)) continue;
            repairs.add(act(c, goods, "missing_order", "order_written", "SUCCESS " + requestId + " of user " + h.getKey()
                    + " has no order row", () -> writeOrder(c, goods, h.getKey(), requestId, Long.parseLong(h.getValue()[1]))));
        }
        Set<String> ledgerRequests = new HashSet<>();
        holdings.values().forEach(h -> ledgerRequests.add(h[0]));
        for (Map.Entry<String, Long> order : liveOrders.entrySet()) {
            if (ledgerRequests.contains(order.getKey())) continue;
            String detail = "order " + order.getKey() + " of user " + order.getValue() + " has no SUCCESS in the ledger";
            if (!audited(c, goods, "stray_order", detail)) repairs.add(act(c, goods, "stray_order", "flagged", detail, () -> { }));
        }
        if (drift.dbStock() != null && drift.dbStock() != ledgerStock) {
            String detail = "DB stock " + drift.dbStock() + ", ledger says " + ledgerStock;
            if (!audited(c, goods, "db_drift", detail)) repairs.add(act(c, goods, "db_drift", "flagged", detail, () -> { }));
        }
        return new Row(drift, true, repairs);
    }

    private interface Action {
        void run() throws Exception;
    }

    private String act(Connection c, long goods, String kind, String action, String detail, Action repair) throws Exception {
        if (dryRun) return kind + " (dry run: " + action + " not done)";
        repair.run();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO reconcile_audit (goods_id, kind, action, detail) VALUES (?, ?, ?, ?)")) {
            ps.setLong(1, goods);
            ps.setString(2, kind);
            ps.setString(3, action);
            ps.setString(4, detail.length() > 500 ? detail.substring(0, 500) : detail);
            ps.executeUpdate();
        }
        metrics.counter("seckill_reconcile_repairs", "kind", kind).increment();
        LOG.warn("goods {}: {} -> {} ({})", goods, kind, action, detail);
        return kind + ": " + action;
    }

    private static boolean audited(Connection c, long goods, String kind, String detail) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM reconcile_audit WHERE goods_id = ? AND kind = ? AND detail = ? LIMIT 1")) {
            ps.setLong(1, goods);
            ps.setString(2, kind);
            ps.setString(3, detail);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void writeOrder(Connection c, long goods, long user, String requestId, long quantity) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO purchase_order (request_id, goods_id, user_id, quantity, "
                + "status, live_user_id, trace_id) VALUES (?, ?, ?, ?, 'CREATED', ?, 'reconciler')")) {
            ps.setString(1, requestId);
            ps.setLong(2, goods);
            ps.setLong(3, user);
            ps.setLong(4, quantity);
            ps.setLong(5, user);
            ps.executeUpdate();
        }
    }

    private void gauge(long goods, String source, long value) {
        driftGauges.computeIfAbsent(goods + "/" + source, k -> {
            AtomicLong holder = new AtomicLong();
            metrics.gauge("seckill_reconcile_drift", io.micrometer.core.instrument.Tags.of("goods", Long.toString(goods), "source", source),
                    holder, AtomicLong::get);
            return holder;
        }).set(value);
    }

    private void retireGauges(long goods) {
        for (String source : List.of("redis", "db")) {
            if (driftGauges.remove(goods + "/" + source) == null) continue;
            metrics.find("seckill_reconcile_drift").tags("goods", Long.toString(goods), "source", source).meters()
                    .forEach(metrics::remove);
        }
    }

    /** Goods with a per-goods drift gauge now (ended, settled goods have none). */
    public java.util.Set<Long> goodsWithGauges() {
        Set<Long> out = new java.util.TreeSet<>();
        driftGauges.keySet().forEach(k -> out.add(Long.parseLong(k.substring(0, k.indexOf('/')))));
        return out;
    }

    private static List<Long> goods(Connection c) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT goods_id FROM reconcile_fold ORDER BY goods_id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    private static long[] foldOf(Connection c, long goods) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT opened, deducted, released, COALESCE(keys_expire_at_ms, 0) FROM reconcile_fold WHERE goods_id = ?")) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)};
            }
        }
    }

    private static Map<Long, String[]> holdings(Connection c, long goods) throws SQLException {
        Map<Long, String[]> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT user_id, request_id, quantity FROM reconcile_holding WHERE goods_id = ?")) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getLong(1), new String[] {rs.getString(2), Long.toString(rs.getLong(3))});
            }
        }
        return out;
    }

    private static Map<String, Long> liveOrders(Connection c, long goods) throws SQLException {
        Map<String, Long> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT request_id, user_id FROM purchase_order WHERE goods_id = ? AND live_user_id IS NOT NULL")) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }

    private static boolean orderExists(Connection c, String requestId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM purchase_order WHERE request_id = ?")) {
            ps.setString(1, requestId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static Long single(Connection c, String sql, long goods) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, goods);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                long v = rs.getLong(1);
                return rs.wasNull() ? null : v;
            }
        }
    }

    /** A fixed-width table: one row per goods, each source side by side, the verdict and what was done. */
    public static String render(List<Row> rows) {
        StringBuilder b = new StringBuilder(String.format("%-10s %8s %8s %8s | %8s %7s | %8s %7s | %8s %7s %8s | %-14s %s%n",
                "goods", "opened", "deducted", "released", "ledger", "buyers", "redis", "buyers", "db", "orders", "dbLedger",
                "verdict", "repairs"));
        for (Row r : rows) {
            GoodsDrift d = r.drift();
            b.append(String.format("%-10d %8d %8d %8d | %8d %7d | %8s %7s | %8s %7s %8s | %-14s %s%n", d.goodsId(), d.opened(),
                    d.deducted(), d.released(), d.ledgerStock(), d.ledgerLiveBuyers(), str(d.redisStock()), str(d.redisBuyers()),
                    str(d.dbStock()), str(d.dbLiveOrders()), str(d.dbLedgerStock()), r.verdict(),
                    r.repairs().isEmpty() ? "-" : String.join("; ", r.repairs())));
        }
        return b.toString();
    }

    private static String str(Long v) { return v == null ? "-" : v.toString(); }

    public long cycles() { return cycles; }

    @Override public void close() {
        fold.close();
        admin.close();
    }
}
