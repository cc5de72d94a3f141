package dev.seckill.kit.warmup;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.WarmupSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.observability.Console;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a service starts in the middle of a sale: the newest command (a purchase, an opening, a payment, a release) is younger than
 * {@link WarmupSettings#LIVE_WINDOW_MS}. A restart after a crash mid-sale then serves at once and warms on the buyers'
 * own traffic: a warm-up before ready would compete with the recovery for the CPU while buyers wait. A
 * deploy before a sale (no command for a while) warms as before, so the first second of the sale is not cold.
 */
public final class LiveSale {
    private static final Logger LOG = LoggerFactory.getLogger(LiveSale.class);
    private static final Duration ASK = Duration.ofSeconds(5);

    private LiveSale() {}

    /** {@code warmup}, or 0 when a sale is live (said in one line); a broker that cannot tell: {@code warmup}. */
    public static int warmupUnlessLive(Settings settings, int warmup, String service) {
        if (warmup <= 0) return warmup;
        long window = settings.get(WarmupSettings.LIVE_WINDOW_MS);
        if (window <= 0) return warmup;
        long age = newestCommandAgeMs(settings, Clock.systemUTC());
        if (age < 0 || age >= window) return warmup;
        Console.printf(
                "%s: the newest command is %,d ms old (a sale is live): serving at once, no warm-up before ready%n",
                service, age);
        return 0;
    }

    /** Milliseconds since the newest record of the commands topic was produced; -1 when it has none or cannot be read. */
    static long newestCommandAgeMs(Settings settings, Clock clock) {
        String topic = new Topics(settings.topicPrefix()).commands();
        Admin admin = KafkaClients.admin(settings);
        try {
            TopicDescription description = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(ASK.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic);
            Map<TopicPartition, OffsetSpec> newest = description.partitions().stream()
                    .map(TopicPartitionInfo::partition)
                    .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.maxTimestamp()));
            long youngest = admin.listOffsets(newest).all().get(ASK.toMillis(), TimeUnit.MILLISECONDS).values().stream()
                    .filter(r -> r.offset() >= 0)
                    .mapToLong(r -> r.timestamp())
                    .max()
                    .orElse(-1);
            return youngest < 0 ? -1 : Math.max(0, clock.millis() - youngest);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } catch (Exception e) {
            LOG.info("could not tell whether a sale is live ({}): warming up", e.toString());
            return -1;
        } finally {
            admin.close(ASK);
        }
    }
}
