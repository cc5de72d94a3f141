package dev.seckill.kit.kafka;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.observability.Console;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/**
 * A consumer group's session timeout fitted to what the brokers accept: a broker refuses to let a member join with a
 * session below its {@code group.min.session.timeout.ms} (Kafka's default 6 s) or above its
 * {@code group.max.session.timeout.ms}. A short session notices a dead member sooner; on a cluster that does
 * not allow it, the service runs with the nearest allowed value and says so in one line instead of never joining.
 */
public final class SessionTimeouts {
    /** Kafka's own defaults, assumed when the brokers' settings cannot be read (no DescribeConfigs right). */
    static final int KAFKA_MIN = 6_000;

    static final int KAFKA_MAX = 1_800_000;

    private SessionTimeouts() {}

    /** {@code wanted}, or the nearest value the brokers accept (said on standard output). */
    public static int fitted(Settings settings, int wanted, String service) {
        Admin admin = KafkaClients.admin(settings);
        try {
            return fitted(admin, wanted, service);
        } finally {
            admin.close(Duration.ofSeconds(1)); // a broker that did not answer does not hold the start a minute more
        }
    }

    /** As above, through an Admin client of the caller's (a service's start shares one). */
    public static int fitted(Admin admin, int wanted, String service) {
        Range range = brokerRange(admin);
        int fitted = fit(wanted, range.min(), range.max());
        if (fitted != wanted)
            Console.printf(
                    "%s: session timeout %,d ms is outside what the brokers accept (group.min/max.session.timeout.ms"
                            + " %,d–%,d ms%s): using %,d ms; a dead member is noticed that much later%n",
                    service,
                    wanted,
                    range.min(),
                    range.max(),
                    range.read() ? "" : ", Kafka's defaults assumed",
                    fitted);
        return fitted;
    }

    static int fit(int wanted, int min, int max) {
        return Math.max(min, Math.min(max, wanted));
    }

    /** The session timeouts a broker accepts; {@code read} false: Kafka's defaults, the broker's could not be read. */
    public record Range(int min, int max, boolean read) {}

    /** What a broker of the cluster says it accepts ({@code group.min/max.session.timeout.ms}). */
    public static Range brokerRange(Settings settings) {
        Admin admin = KafkaClients.admin(settings);
        try {
            return brokerRange(admin);
        } finally {
            admin.close(Duration.ofSeconds(1)); // a broker that did not answer does not hold the start a minute more
        }
    }

    /** As above, through an Admin client of the caller's. */
    public static Range brokerRange(Admin admin) {
        try {
            String node = Integer.toString(admin.describeCluster()
                    .nodes()
                    .get(10, TimeUnit.SECONDS)
                    .iterator()
                    .next()
                    .id());
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, node);
            Config config = admin.describeConfigs(List.of(broker))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .get(broker);
            return new Range(
                    value(config.get("group.min.session.timeout.ms"), KAFKA_MIN),
                    value(config.get("group.max.session.timeout.ms"), KAFKA_MAX),
                    true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Range(KAFKA_MIN, KAFKA_MAX, false);
        } catch (Exception e) {
            Console.printf(
                    "session timeout: the brokers' group.min/max.session.timeout.ms could not be read (%s)%n", e);
            return new Range(KAFKA_MIN, KAFKA_MAX, false);
        }
    }

    private static int value(ConfigEntry entry, int fallback) {
        if (entry == null || entry.value() == null) return fallback;
        try {
            return Integer.parseInt(entry.value());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
