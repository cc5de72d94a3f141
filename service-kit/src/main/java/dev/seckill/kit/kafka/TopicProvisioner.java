package dev.seckill.kit.kafka;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.observability.OneLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the pipeline's topics (idempotently) from {@link Topics}: the one place their shape is defined. */
public final class TopicProvisioner {
    private TopicProvisioner() {}

    /**
     * The broker's {@code default.replication.factor} (and its {@code min.insync.replicas}): 1 on the single local
     * broker, 3 and 2 on a 3-node cluster ({@code ./seckill up --brokers 3}) and as a production cluster sets them.
     */
    private static final short BROKER_DEFAULT = -1;

    public static List<NewTopic> specs(Topics topics, int partitions) {
        return specs(topics, partitions, "LogAppendTime");
    }

    /**
     * The topics' shapes; the commands topic's records carry {@code commandsTimestamps} ({@code LogAppendTime}: the
     * broker's append time, which closes a drawn window; {@code CreateTime}: a drill's copies keep their recorded times).
     */
    public static List<NewTopic> specs(Topics topics, int partitions, String commandsTimestamps) {
        if (!commandsTimestamps.equals("LogAppendTime") && !commandsTimestamps.equals("CreateTime"))
            throw new IllegalArgumentException(SharedSettings.COMMANDS_TIMESTAMPS.env()
                    + " must be LogAppendTime or CreateTime, not '" + commandsTimestamps + "'");
        List<NewTopic> specs = new ArrayList<>();
        specs.add(new NewTopic(topics.commands(), partitions, BROKER_DEFAULT)
                .configs(Map.of("message.timestamp.type", commandsTimestamps)));
        for (String t : topics.outcomes()) specs.add(new NewTopic(t, partitions, BROKER_DEFAULT));
        specs.add(new NewTopic(topics.ledger(), partitions, BROKER_DEFAULT)
                .configs(Map.of("retention.ms", "-1", "retention.bytes", "-1")));
        specs.add(new NewTopic(topics.dlq(), partitions, BROKER_DEFAULT));
        specs.add(new NewTopic(topics.payments(), partitions, BROKER_DEFAULT));
        return specs;
    }

    /**
     * Waits until the leader of every partition serves ListOffsets, i.e. has really created the partition. Producing
     * to a partition the broker has not finished creating can lose records despite idempotence (KAFKA-15591: a first
     * batch rejected NOT_LEADER, the next accepted, the first then spins on OUT_OF_ORDER_SEQUENCE until it expires).
     */
    public static void awaitWritable(Admin admin, List<String> topics) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                admin.describeTopics(topics)
                        .allTopicNames()
                        .get(10, TimeUnit.SECONDS)
                        .forEach((name, d) -> d.partitions()
                                .forEach(
                                        p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
                admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) throw e;
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
    }

    /** Assigns a consumer every partition of the topics (no group), from the beginning or from the end. */
    public static List<TopicPartition> assignAll(Consumer<?, ?> consumer, List<String> topics, boolean fromEnd) {
        List<TopicPartition> parts = new ArrayList<>();
        for (String t : topics) {
            consumer.partitionsFor(t, Duration.ofSeconds(30))
                    .forEach(p -> parts.add(new TopicPartition(t, p.partition())));
        }
        consumer.assign(parts);
        if (fromEnd) {
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position); // resolve now, so nothing written after this call is missed
        } else {
            consumer.seekToBeginning(parts);
        }
        return parts;
    }

    /**
     * Creates whatever of the pipeline's topics is missing, with {@link SharedSettings#TOPIC_PARTITIONS} partitions;
     * returns the names it created.
     */
    public static List<String> ensure(Settings settings, Topics topics) {
        return ensure(settings, topics, settings.get(SharedSettings.TOPIC_PARTITIONS));
    }

    /** Creates whatever of the pipeline's topics is missing, with {@code partitions}; returns the names it created. */
    public static List<String> ensure(Settings settings, Topics topics, int partitions) {
        try (Admin admin = KafkaClients.admin(settings)) {
            return ensure(admin, settings, topics, partitions);
        }
    }

    /** As {@link #ensure(Settings, Topics)}, through an Admin client of the caller's (a service's start shares one). */
    public static List<String> ensure(Admin admin, Settings settings, Topics topics) {
        return ensure(admin, settings, topics, settings.get(SharedSettings.TOPIC_PARTITIONS));
    }

    private static List<String> ensure(Admin admin, Settings settings, Topics topics, int partitions) {
        try {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing =
                    specs(topics, partitions, settings.get(SharedSettings.COMMANDS_TIMESTAMPS)).stream()
                            .filter(t -> !existing.contains(t.name()))
                            .toList();
            if (missing.isEmpty()) return List.of();
            try {
                admin.createTopics(missing).all().get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) throw e;
            }
            List<String> created = missing.stream().map(NewTopic::name).toList();
            awaitWritable(admin, created);
            return created;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating topics");
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "cannot create topics at " + settings.kafkaBootstrap() + ": no broker answered in time"
                            + " (is Kafka running there? ./seckill up starts one)",
                    e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot create topics at " + settings.kafkaBootstrap() + ": " + OneLine.message(e), e);
        }
    }

    /** How many partitions {@code topic} has. */
    public static int partitionsOf(Settings settings, String topic) {
        try (Admin admin = KafkaClients.admin(settings)) {
            return partitionsOf(admin, settings, topic);
        }
    }

    /** As above, through an Admin client of the caller's. */
    public static int partitionsOf(Admin admin, Settings settings, String topic) {
        try {
            return admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(topic)
                    .partitions()
                    .size();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading topic " + topic);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot read topic " + topic + " at " + settings.kafkaBootstrap() + ": " + e.getMessage(), e);
        }
    }
}
