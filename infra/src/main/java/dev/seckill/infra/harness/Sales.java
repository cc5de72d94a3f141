package dev.seckill.infra.harness;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.redis.RedisConnections;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import redis.clients.jedis.UnifiedJedis;

/**
 * The one way the tools and tests open a sale and wait until the pipeline has it (an {@code open_sale} through the
 * commands topic, then the goods' keys in Redis at or past its offset), and, on a pipeline run as processes (the
 * strategies benchmark, chaos, the cold-start benchmark), its orders waited for once the buyers are done.
 */
public final class Sales {
    /** The goods of the sale every strategy (and every chaos run) faces. */
    public static final long GOODS = 1001;

    private static final long STABLE_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long DRAIN_NANOS = TimeUnit.MINUTES.toNanos(2);

    private Sales() {}

    /** Opens a sale of an hour that has started (per-buyer limit 1) and waits until stock-stream applied it. */
    public static void open(Settings s, long goods, long stock) throws Exception {
        open(s, started(goods, stock, Duration.ofHours(1), 1, "cold-open-" + goods), Duration.ofMinutes(2));
    }

    /** Sends {@code open} with a producer of its own and waits, at most {@code within}, until stock-stream applied it. */
    public static long open(Settings s, OpenSale open, Duration within) throws Exception {
        try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(s)) {
            return open(producer, s, open, within);
        }
    }

    /**
     * Sends {@code open} through {@code <prefix>commands} and waits, at most {@code within}, until stock-stream applied
     * it to Redis (a forced open of a goods that has keys as well as a first one); returns the open's offset.
     */
    public static long open(KafkaProducer<String, byte[]> producer, Settings s, OpenSale open, Duration within)
            throws Exception {
        long offset = producer.send(new ProducerRecord<>(
                        new Topics(s.topicPrefix()).commands(), open.key(), CommandCodec.encode(open)))
                .get(30, TimeUnit.SECONDS)
                .offset();
        try (UnifiedJedis redis = RedisConnections.open(s)) {
            awaitApplied(redis, new RedisKeys(s.redisPrefix()), open.goodsId(), offset, within);
        }
        return offset;
    }

    /** An open_sale that started a second ago and runs for {@code length}. */
    public static OpenSale started(long goods, long stock, Duration length, int perUserLimit, String opId) {
        return started(goods, stock, length, perUserLimit, opId, false);
    }

    /** As above; {@code force}: even over the keys of an earlier sale of the goods. */
    public static OpenSale started(
            long goods, long stock, Duration length, int perUserLimit, String opId, boolean force) {
        Instant now = Instant.now();
        return new OpenSale(goods, stock, now.minusSeconds(1), now.plus(length), perUserLimit, opId, force);
    }

    /**
     * Waits, at most {@code within}, until stock-stream applied the command at {@code offset} of the goods' partition
     * (or a later one) to Redis: the goods' stock is there and its sale's marker is at or past that offset. An open it
     * refused (to the DLQ) never gets there.
     */
    public static void awaitApplied(UnifiedJedis redis, RedisKeys keys, long goods, long offset, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (redis.get(keys.stock(goods)) == null || marker(redis.hget(keys.sale(goods), "at")) < offset) {
            if (System.nanoTime() > deadline)
                throw new IllegalStateException("the sale of goods " + goods + " (offset " + offset
                        + ") was not opened in " + within + " (refused to the DLQ?)");
            TimeUnit.MILLISECONDS.sleep(20); // polling Redis, written by another process
        }
    }

    private static long marker(String at) {
        try {
            return at == null || at.isEmpty() ? -1 : Long.parseLong(at);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The asynchronous writers (the sync design's consumer, the pipeline's order-writer) have finished: as many orders
     * as SUCCESS answers and 3 s unchanged; fewer may still come (a restarted consumer waits for its group to let the
     * dead member go), so fewer are waited for up to 2 minutes before they count as lost.
     */
    public static void awaitOrders(Connection c, long confirmed) throws Exception {
        awaitOrders(c, GOODS, confirmed);
    }

    /** As above, for the orders of {@code goods}; returns the live orders at the end. */
    public static long awaitOrders(Connection c, long goods, long confirmed) throws Exception {
        long deadline = System.nanoTime() + DRAIN_NANOS;
        long last = -1;
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            long now = liveOrders(c, goods);
            if (now != last) {
                last = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since > STABLE_NANOS && now >= confirmed) {
                return now;
            }
            TimeUnit.MILLISECONDS.sleep(250); // polling a database other processes write
        }
        return liveOrders(c, goods);
    }

    /** The number of live orders of {@code goods} now (to see when the asynchronous writers have drained). */
    public static long liveOrders(Connection c, long goods) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND "
                + "status IN ('CREATED', 'PAYING', 'PAID')")) {
            q.setLong(1, goods);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** A connection to a sale's database, by JDBC URL (the processes' pools are theirs). */
    public static Connection connect(String url, String user, String password) throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }
}
