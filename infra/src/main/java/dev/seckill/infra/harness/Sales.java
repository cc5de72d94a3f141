package dev.seckill.infra.harness;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import redis.clients.jedis.UnifiedJedis;

/**
 * A sale on a pipeline started as processes (the strategies benchmark, chaos, the cold-start benchmark): opened
 * through the commands topic and waited for, and its orders waited for once the buyers are done.
 */
public final class Sales {
    /** The goods of the sale every strategy (and every chaos run) faces. */
    public static final long GOODS = 1001;

    private static final long STABLE_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long DRAIN_NANOS = TimeUnit.MINUTES.toNanos(2);

    private Sales() {}

    /** Opens a sale that has started, through the commands topic, and waits until stock-stream wrote its stock to Redis. */
    public static void open(Settings s, Topics topics, UnifiedJedis redis, long goods, long stock) throws Exception {
        OpenSale open = started(goods, stock, Duration.ofHours(1), 1, "cold-open-" + goods);
        try (KafkaProducer<String, byte[]> p = KafkaClients.producer(
                s, Map.of(ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
            p.send(new ProducerRecord<>(topics.commands(), open.key(), CommandCodec.encode(open)))
                    .get(30, TimeUnit.SECONDS);
        }
        awaitOpen(redis, new RedisKeys(s.redisPrefix()), goods, Duration.ofMinutes(2));
    }

    /** An open_sale that started a second ago and runs for {@code length}. */
    public static OpenSale started(long goods, long stock, Duration length, int perUserLimit, String opId) {
        Instant now = Instant.now();
        return new OpenSale(goods, stock, now.minusSeconds(1), now.plus(length), perUserLimit, opId, false);
    }

    /** Waits, at most {@code within}, until stock-stream wrote the goods' stock to Redis: its open_sale was decided. */
    public static void awaitOpen(UnifiedJedis redis, RedisKeys keys, long goods, Duration within)
            throws InterruptedException {
        String key = keys.stock(goods);
        long deadline = System.nanoTime() + within.toNanos();
        while (redis.get(key) == null) {
            if (System.nanoTime() > deadline)
                throw new IllegalStateException("the sale of goods " + goods + " was not opened in " + within);
            TimeUnit.MILLISECONDS.sleep(20); // polling Redis, written by another process
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
            long now = StrategyAudit.liveOrders(c, goods);
            if (now != last) {
                last = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since > STABLE_NANOS && now >= confirmed) {
                return now;
            }
            TimeUnit.MILLISECONDS.sleep(250); // polling a database other processes write
        }
        return StrategyAudit.liveOrders(c, goods);
    }
}
