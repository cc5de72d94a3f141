package dev.seckill.infra.harness;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.stock.bucket.BucketPlan;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * The stock-stream group as a test or a drill sees it from outside, through the Admin API: which instances it holds
 * once stable, and which instance owns a goods' commands partition now (the one a kill must hit to be felt). An
 * instance is named by its client id, {@code <application id>-<instance id>} — a stream thread's consumer is that
 * followed by {@code -StreamThread-<n>-consumer} — so a service's default id, {@code <host>-<metrics port>}, tells a
 * process on this host by its port and a container by its host name.
 */
public final class StreamGroup implements AutoCloseable {
    private static final int ASK_SECONDS = 5;
    private static final String THREAD_SUFFIX = "-StreamThread-[0-9]+-consumer$";

    private final Admin admin;
    private final String group;
    private final String commands;

    public StreamGroup(Settings settings) {
        this.admin = KafkaClients.admin(settings);
        this.group = GroupIds.stockStream(settings);
        this.commands = new Topics(settings.topicPrefix()).commands();
    }

    /** The instances of the group while it is stable; empty while it rebalances, is empty or cannot be asked. */
    public Set<String> stableInstances() {
        try {
            ConsumerGroupDescription d = describe();
            if (d.groupState() != GroupState.STABLE) return Set.of();
            Set<String> instances = new TreeSet<>();
            for (MemberDescription m : d.members()) instances.add(instanceOf(m));
            return instances;
        } catch (Exception e) {
            return Set.of();
        }
    }

    /** The instance whose consumer owns the commands partition of {@code goods}; null while no member does. */
    public String ownerOf(long goods) throws Exception {
        int partitions = admin.describeTopics(List.of(commands))
                .allTopicNames()
                .get(ASK_SECONDS, TimeUnit.SECONDS)
                .get(commands)
                .partitions()
                .size();
        TopicPartition home = new TopicPartition(commands, BucketPlan.homeOf(Long.toString(goods), partitions));
        for (MemberDescription m : describe().members())
            if (m.assignment().topicPartitions().contains(home)) return instanceOf(m);
        return null;
    }

    private static String instanceOf(MemberDescription m) {
        return m.clientId().replaceAll(THREAD_SUFFIX, "");
    }

    private ConsumerGroupDescription describe() throws Exception {
        return admin.describeConsumerGroups(List.of(group))
                .describedGroups()
                .get(group)
                .get(ASK_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        admin.close();
    }
}
