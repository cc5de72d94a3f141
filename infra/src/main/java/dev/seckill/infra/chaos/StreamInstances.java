package dev.seckill.infra.chaos;

import dev.seckill.contracts.Topics;
import dev.seckill.infra.harness.ServedStrategy;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.stock.bucket.BucketPlan;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * The stock-stream group as the chaos run sees it from outside: more instances started beside the first (the
 * manifests' shape), and which instance owns the sale's partition now — the one a kill must hit to be felt.
 */
final class StreamInstances {
    private static final int ASK_SECONDS = 5;
    private static final Pattern PORT = Pattern.compile("-([0-9]+)-StreamThread-[0-9]+-consumer$");

    private StreamInstances() {}

    /** Starts {@code more} instances beside the first, waits until each is healthy and the group is stable with all. */
    static void startMore(ServedStrategy pipeline, Settings s, int more, PrintStream out) throws Exception {
        if (more <= 0) return;
        for (int i = 0; i < more; i++) {
            String name = pipeline.startStreamInstance();
            out.printf("   %s started: /health 200 after %,d ms%n", name, pipeline.awaitHealthy(name));
        }
        try (Admin admin = admin(s)) {
            long ms = ChaosTarget.await(() -> stableWith(admin, GroupIds.stockStream(s), more + 1), 120);
            if (ms < 0)
                throw new IllegalStateException("the stock-stream group never became stable with " + (more + 1));
            out.printf("   the stock-stream group is stable with %d instances%n", more + 1);
        }
    }

    /**
     * The part ({@code stock-stream}, {@code stock-stream-N}) whose consumer owns the commands partition of
     * {@code goods}; null while no member does (a rebalance).
     */
    static String ownerOf(ServedStrategy pipeline, Settings s, long goods) throws Exception {
        String commands = new Topics(s.topicPrefix()).commands();
        String group = GroupIds.stockStream(s);
        try (Admin admin = admin(s)) {
            int partitions = admin.describeTopics(List.of(commands))
                    .allTopicNames()
                    .get(ASK_SECONDS, TimeUnit.SECONDS)
                    .get(commands)
                    .partitions()
                    .size();
            TopicPartition sale = new TopicPartition(commands, BucketPlan.homeOf(Long.toString(goods), partitions));
            for (MemberDescription m : describe(admin, group).members()) {
                if (!m.assignment().topicPartitions().contains(sale)) continue;
                // a service's default instance id is <host>-<metrics port>, its /health answers on that port, and a
                // stream thread's consumer is <app>-<instance id>-StreamThread-<n>-consumer
                Matcher port = PORT.matcher(m.clientId());
                return port.find() ? pipeline.partOnPort(Integer.parseInt(port.group(1))) : null;
            }
            return null;
        }
    }

    private static boolean stableWith(Admin admin, String group, int members) {
        try {
            ConsumerGroupDescription d = describe(admin, group);
            long instances = d.members().stream()
                    .map(m -> m.clientId().replaceAll("-StreamThread-[0-9]+-consumer$", ""))
                    .distinct()
                    .count();
            return d.groupState() == GroupState.STABLE && instances == members;
        } catch (Exception e) {
            return false;
        }
    }

    private static ConsumerGroupDescription describe(Admin admin, String group) throws Exception {
        return admin.describeConsumerGroups(List.of(group))
                .describedGroups()
                .get(group)
                .get(ASK_SECONDS, TimeUnit.SECONDS);
    }

    private static Admin admin(Settings s) {
        return KafkaClients.admin(s);
    }
}
