package dev.seckill.stock.decision;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.threads.Daemons;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis's clock against the stream's. Key expiries are judged on Redis's clock inside the scripts ({@code open_sale.lua},
 * {@code restore.lua}: keys live at least 5 s by it), so a skew no longer makes keys vanish as they are written and a
 * partition rebuild them for ever; it is still a fault of the hosts' time sync, so it is measured — gauge
 * {@code seckill_redis_clock_skew_seconds}, Redis minus the stream, alert {@code SeckillRedisClockSkew} — and logged once
 * when it passes {@link #REPORTED}, once when it is back under.
 */
public final class RedisClockWatch {
    private static final Logger LOG = LoggerFactory.getLogger(RedisClockWatch.class);
    /** A skew past this is reported (logged once; the alert's threshold is in monitoring/alerts.yml). */
    public static final Duration REPORTED = Duration.ofSeconds(1);

    private static final String TIME = "return redis.call('TIME')";

    private final UnifiedJedis redis;
    private final String key;
    private final Clock clock;
    private final AtomicLong skewMs = new AtomicLong();
    private boolean reported;

    public RedisClockWatch(UnifiedJedis redis, RedisKeys keys, Clock clock, MeterRegistry metrics) {
        this.redis = redis;
        this.key = keys.stock(0); // any key: routes the call to a node (Redis Cluster) like the scripts' calls
        this.clock = clock;
        Gauge.builder("seckill_redis_clock_skew_seconds", skewMs, v -> v.get() / 1000.0)
                .description("Redis's clock minus stock-stream's, as last measured (every 15 s)")
                .register(metrics);
    }

    /** Measures the skew now (Redis's TIME against the middle of the round trip); returns it in ms. */
    public synchronized long check() {
        long before = clock.millis();
        Object reply = redis.eval(TIME, List.of(key), List.of());
        long after = clock.millis();
        List<?> parts = (List<?>) reply;
        long redisMs = number(parts.get(0)) * 1000 + number(parts.get(1)) / 1000;
        long skew = redisMs - (before + after) / 2;
        skewMs.set(skew);
        boolean off = Math.abs(skew) > REPORTED.toMillis();
        if (off && !reported)
            LOG.warn(
                    "Redis's clock is {} ms {} stock-stream's: fix the hosts' time sync (key expiries are judged on "
                            + "Redis's clock; sale windows on the gateway's)",
                    Math.abs(skew),
                    skew > 0 ? "ahead of" : "behind");
        else if (!off && reported) LOG.info("Redis's clock is within {} of stock-stream's again", REPORTED);
        reported = off;
        return skew;
    }

    private static long number(Object o) {
        String s = o instanceof byte[] b ? new String(b, StandardCharsets.US_ASCII) : String.valueOf(o);
        return Long.parseLong(s);
    }

    /** This watch every 15 s on a daemon thread of its own, from now; a failed measure waits for the next. */
    public ScheduledExecutorService inBackground() {
        ScheduledExecutorService every = Daemons.scheduler("redis-clock-watch");
        every.scheduleWithFixedDelay(
                () -> {
                    try {
                        check();
                    } catch (RuntimeException e) {
                        LOG.debug("Redis's clock not measured now: {}", e.getMessage());
                    }
                },
                0,
                15,
                TimeUnit.SECONDS);
        return every;
    }
}
