package dev.seckill.stock.draw;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The draws whose window has closed and whose beacon round is not in hand yet, across the instance's tasks: the gauge
 * {@code seckill_draw_beacon_wait_seconds} is the longest any has waited since its cutoff (0 when none waits). A draw
 * waits a few seconds for its round in the normal course (the round is published after the cutoff and the margin); the
 * alert {@code SeckillDrawBeaconLate} fires when one waits far longer (the beacon's relays cannot be reached).
 */
public final class DrawWaits {
    private final Map<Long, Long> since = new ConcurrentHashMap<>();
    private final Clock clock;

    public DrawWaits(Clock clock) {
        this.clock = clock;
    }

    /** A waiting instance's, with its gauge registered. */
    public static DrawWaits registered(MeterRegistry metrics, Clock clock) {
        DrawWaits w = new DrawWaits(clock);
        Gauge.builder("seckill_draw_beacon_wait_seconds", w, DrawWaits::longestSeconds)
                .description("the longest a closed draw window has waited for its beacon round, since its cutoff")
                .register(metrics);
        return w;
    }

    void waiting(long goodsId, long cutoffAt) {
        since.putIfAbsent(goodsId, cutoffAt);
    }

    void forget(long goodsId) {
        since.remove(goodsId);
    }

    public double longestSeconds() {
        long now = clock.millis();
        return since.values().stream()
                        .mapToLong(c -> Math.max(0, now - c))
                        .max()
                        .orElse(0)
                / 1000.0;
    }
}
