package dev.seckill.order;

import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import java.time.Duration;
import java.util.List;

/** order-writer's settings, each declared once, and their values read once at start ({@link #from(Settings)}). */
public record OrderWriterSettings(
        int batchMax,
        long paymentTimeoutMs,
        long paymentGraceMs,
        long sweepIntervalMs,
        int dlqAttempts,
        long dlqBackoffMs,
        long dlqTimeoutMs,
        int metricsPort) {

    /** The most {@link #PAYMENT_GRACE_MS} defaults to. */
    private static final long MAX_DEFAULT_GRACE_MS = 60_000;

    public static final Setting<Integer> BATCH_MAX =
            Setting.integer("writer.batch.max", 3000, "records per poll, written in one transaction");
    public static final Setting<Long> PAYMENT_TIMEOUT_MS = Setting.number(
            "writer.payment.timeout.ms",
            Duration.ofMinutes(15).toMillis(),
            "how long an order waits for its payment before it is cancelled");
    /**
     * Default: a tenth of the payment timeout, at most a minute (60 s with the 15 min timeout): a payment made on time and
     * published up to that late still wins, at the cost of holding an unpaid order's units that much longer. Scaled
     * with the timeout so that short timeouts (drills, tests) keep short cancellations. 0 refuses any late publication.
     */
    public static final Setting<Integer> PAYMENT_GRACE_MS = Setting.integer(
            "writer.payment.grace.ms",
            s -> (int) Math.min(s.get(PAYMENT_TIMEOUT_MS) / 10, MAX_DEFAULT_GRACE_MS),
            "a tenth of the payment timeout, at most 60000",
            "how long after an order's deadline the payments topic must be written before the order is cancelled (room "
                    + "for a provider that publishes an on-time payment late)");

    public static final Setting<Long> SWEEP_INTERVAL_MS = Setting.number(
            "writer.sweep.interval.ms", 1000, "how often unpaid orders past the deadline are looked for");
    public static final Setting<Integer> DLQ_ATTEMPTS = Setting.integer(
            "writer.dlq.attempts", 5, "tries of a DLQ write before the service stops (health DOWN, exit 1)");
    public static final Setting<Long> DLQ_BACKOFF_MS =
            Setting.number("writer.dlq.backoff.ms", 200, "the first wait between DLQ tries (doubling)");
    public static final Setting<Long> DLQ_TIMEOUT_MS = Setting.number(
            "writer.dlq.timeout.ms", 10_000, "the producer's max.block.ms for the DLQ and release commands");
    public static final Setting<Integer> METRICS_PORT = Setting.integer(
            "writer.metrics.port", 9403, "the port of /metrics and /health (503 DOWN once the consumer loop ended)");
    public static final Setting<String> INSTANCE_ID = Setting.text(
            "writer.instance.id",
            s -> "",
            "<host name>-<metrics port> when run as a service",
            "static group membership (group.instance.id; each instance its own): a restarted writer takes its "
                    + "partitions back at once instead of after the session timeout ('dynamic': dynamic membership)");
    public static final Setting<Integer> DB_POOL_SIZE =
            Setting.integer("db.pool.size", 8, "connections of order-writer's pool (and of ./seckill reconcile's)");
    public static final Setting<Long> DB_CONNECT_TIMEOUT_MS =
            Setting.number("db.connect.timeout.ms", 5000, "how long the pool waits for a connection");

    /** Every setting declared here, in order. */
    public static List<Setting<?>> all() {
        return Setting.declaredIn(OrderWriterSettings.class);
    }

    public static OrderWriterSettings from(Settings s) {
        return new OrderWriterSettings(
                s.get(BATCH_MAX),
                s.get(PAYMENT_TIMEOUT_MS),
                s.get(PAYMENT_GRACE_MS),
                s.get(SWEEP_INTERVAL_MS),
                s.get(DLQ_ATTEMPTS),
                s.get(DLQ_BACKOFF_MS),
                s.get(DLQ_TIMEOUT_MS),
                s.get(METRICS_PORT));
    }
}
