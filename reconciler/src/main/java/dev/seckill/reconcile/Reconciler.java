package dev.seckill.reconcile;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.reconcile.ReconcileQueries.Holding;
import dev.seckill.reconcile.ReconcileQueries.LedgerFold;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import redis.clients.jedis.UnifiedJedis;

/**
 * One reconcile cycle: fold the ledger (durably), then per goods compare the fold with Redis and the DB. A goods
 * whose partition has work in flight is reported IN_FLIGHT and never repaired. A settled goods that disagrees is
 * repaired ({@link Repairs}), each repair written to reconcile_audit with its reason:
 * <ul>
 *   <li>Redis stock or buyers missing or wrong → a {@code restore} command through {@code <prefix>commands}, so the
 *       rebuild runs in the partition's serial order and never races a live decision (audited before it is sent);</li>
 *   <li>a live buyer in the ledger with no order row → the order is written (idempotent by (goods, request_id));</li>
 *   <li>a live order row with no SUCCESS behind it in the ledger → flagged, never deleted.</li>
 * </ul>
 * In dry-run mode it only reports.
 */
public final class Reconciler implements AutoCloseable {
    /** One goods after a cycle: the sources side by side, whether it was settled, what was repaired. */
    public record Row(GoodsDrift drift, boolean settled, List<String> repairs) {
        public String verdict() {
            return settled ? drift.verdict() : "IN_FLIGHT";
        }
    }

    private final Topics topics;
    private final RedisKeys keys;
    private final DataSource db;
    private final UnifiedJedis redis;
    private final RedisRestores restores;
    private final Repairs repairs;
    private final boolean dryRun;
    private final DurableLedgerFold fold;
    private final Admin admin;
    private final PipelineLag lag;
    private final KeyLifetime lifetime;
    private final DriftGauges gauges;
    private final AtomicLong ledgerLag = new AtomicLong();
    private long cycles;

    public Reconciler(
            Settings settings,
            DataSource db,
            UnifiedJedis redis,
            Producer<String, byte[]> commands,
            MeterRegistry metrics,
            boolean dryRun)
            throws SQLException {
        this.topics = new Topics(settings.topicPrefix());
        this.keys = new RedisKeys(settings.redisPrefix());
        this.db = db;
        this.redis = redis;
        this.restores = new RedisRestores(commands, topics);
        this.repairs = new Repairs(restores, metrics, dryRun);
        this.dryRun = dryRun;
        this.fold = new DurableLedgerFold(settings, topics.ledger(), db, metrics);
        this.admin = KafkaClients.admin(settings);
        this.lag = new PipelineLag(admin, topics, settings);
        this.lifetime = SharedSettings.keyLifetime(settings);
        this.gauges = new DriftGauges(metrics);
        // the fold's consumer is the cycle's alone (KafkaConsumer is single-threaded): the gauge shows the lag the last
        // cycle measured, never asks the consumer from the scrape's thread (that failed cycles mid-way)
        metrics.gauge("seckill_reconcile_ledger_lag", ledgerLag);
    }

    /** Runs one cycle over every goods in the ledger (or only {@code onlyGoods}). */
    public List<Row> cycle(Long onlyGoods) throws Exception {
        cycles++;
        PipelineLag.Snapshot before = lag.snapshot();
        fold.catchUp();
        ledgerLag.set(fold.lag().values().stream().mapToLong(Long::longValue).sum());
        List<Row> rows = new ArrayList<>();
        try (Connection c = db.getConnection()) {
            repairs.sendUnsentRestores(c); // audited by a process that died before it sent them
            List<Observed> observed = new ArrayList<>();
            for (long goods : ReconcileQueries.goods(c)) {
                if (onlyGoods == null || onlyGoods == goods) observed.add(observe(c, goods));
            }
            // judged only now: a goods whose partition moved while its sources were read is in flight, not drifting
            PipelineLag.Snapshot after = lag.snapshot();
            for (Observed o : observed) {
                if (!settled(before, after, o)) rows.add(inFlight(c, o));
                else rows.add(o.buckets() > 1 ? flagBucketed(c, o) : repair(c, o));
            }
        }
        return rows;
    }

    /** One goods as read from every source, before any judgement. */
    private record Observed(
            GoodsDrift drift,
            Map<Long, Holding> holdings,
            Map<String, Long> liveOrders,
            Long saleOffset,
            int buckets) {}

    /**
     * Whether every commands partition the goods is decided in was settled between the two snapshots: its home, and
     * the partitions after it of the buckets of a goods split into buckets.
     */
    private boolean settled(PipelineLag.Snapshot before, PipelineLag.Snapshot after, Observed o) {
        int home = PipelineLag.partitionOf(o.drift().goodsId(), fold.partitionCount());
        for (int b = 0; b < o.buckets(); b++)
            if (!before.settledUntil(after, (home + b) % fold.partitionCount())) return false;
        return true;
    }

    private Observed observe(Connection c, long goods) throws Exception {
        LedgerFold fold = ReconcileQueries.fold(c, goods);
        Map<Long, Holding> holdings = ReconcileQueries.holdings(c, goods);
        Map<String, Long> liveOrders = ReconcileQueries.liveOrders(c, goods);
        ReconcileQueries.DbSide dbSide = ReconcileQueries.dbSide(c, goods);
        BucketedGoods.RedisSide inRedis = BucketedGoods.read(redis, keys, goods, fold.buckets());
        Long stock = inRedis.stock();
        long buyers = inRedis.buyers();
        // live units by the ledger are its live holdings, not deducted − released: that also counts the paid units of
        // earlier sales of the goods, whose orders stop being live when the next sale opens
        long ledgerLiveUnits =
                holdings.values().stream().mapToLong(Holding::quantity).sum();
        GoodsDrift drift = new GoodsDrift(
                goods,
                fold.opened(),
                fold.deducted(),
                fold.released(),
                fold.stock(),
                holdings.size(),
                ledgerLiveUnits,
                stock,
                stock == null && buyers == 0 ? null : buyers,
                dbSide.saleStock(),
                (long) liveOrders.size(),
                dbSide.liveUnits(),
                dbSide.ledgerStock(),
                // a fold with no recorded lifetime was opened before lifetimes were kept (deployed between sales):
                // ended
                fold.keysExpireAtMs() == 0 || lifetime.retired(fold.keysExpireAtMs()),
                ReconcileQueries.paidReleased(c, goods));
        if (drift.ended() && drift.dbAgrees()) {
            gauges.retire(goods); // an ended, settled sale: its per-goods series end with it instead of piling up
        } else {
            gauges.set(
                    goods,
                    "redis",
                    drift.ended() ? 0 : drift.redisStock() == null ? fold.stock() : drift.redisStock() - fold.stock());
            gauges.set(goods, "db", drift.dbStock() == null ? fold.stock() : drift.dbStock() - fold.stock());
        }
        return new Observed(drift, holdings, liveOrders, fold.openedCommandOffset(), fold.buckets());
    }

    /**
     * A goods with work in flight is not judged (its sources are read at different moments) — except a wipe: no key of
     * a live sale in Redis cannot come from work in flight, and buyers are refused until it is restored.
     */
    private Row inFlight(Connection c, Observed o) throws Exception {
        GoodsDrift d = o.drift();
        if (!d.wiped() || o.buckets() > 1 || dryRun || !restores.wipeRestoreDue(d.goodsId()))
            return new Row(d, false, List.of());
        String why = "Redis holds no key of a live sale (wiped); restored with work in flight";
        return new Row(d, false, List.of(repairs.restore(c, d.goodsId(), "redis_wiped", why)));
    }

    /** A settled goods split into buckets: its drift flagged, not repaired ({@link BucketedGoods#flag}). */
    private Row flagBucketed(Connection c, Observed o) throws Exception {
        return new Row(
                o.drift(), true, BucketedGoods.flag(c, repairs, o.drift(), o.holdings(), o.liveOrders(), o.buckets()));
    }

    private Row repair(Connection c, Observed o) throws Exception {
        GoodsDrift drift = o.drift();
        long goods = drift.goodsId();
        long ledgerStock = drift.ledgerStock();
        List<String> done = new ArrayList<>();
        if (!drift.redisAgrees()) {
            String why = "Redis stock " + drift.redisStock() + " / buyers " + drift.redisBuyers() + ", ledger says "
                    + ledgerStock + " / " + o.holdings().size();
            done.add(repairs.restore(c, goods, "redis_drift", why));
        }
        int partition = PipelineLag.partitionOf(goods, fold.partitionCount());
        done.addAll(repairs.orders(c, goods, o.holdings(), o.liveOrders(), partition, o.saleOffset()));
        if (drift.dbStock() != null && drift.dbStock() != ledgerStock) {
            // settled: nothing in flight can still move it, so the ledger says what it is (a SUCCESS dead-lettered, a
            // row lost to a restored backup); set only if it still reads as observed, audited with the repair
            long observed = drift.dbStock();
            String repaired = repairs.write(
                    c,
                    goods,
                    "db_drift",
                    "stock_set",
                    "DB stock " + observed + ", ledger says " + ledgerStock + ": set to " + ledgerStock,
                    () -> ReconcileQueries.setSaleStock(c, goods, observed, ledgerStock));
            if (repaired != null) done.add(repaired);
        }
        return new Row(drift, true, done);
    }

    /** Goods with a per-goods drift gauge now (ended, settled goods have none). */
    public Set<Long> goodsWithGauges() {
        return gauges.goods();
    }

    /** A fixed-width table: one row per goods, each source side by side, the verdict and what was done. */
    public static String render(List<Row> rows) {
        return ReconcileTable.render(rows);
    }

    public long cycles() {
        return cycles;
    }

    @Override
    public void close() {
        fold.close();
        admin.close();
    }
}
