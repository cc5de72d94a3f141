package dev.seckill.infra.harness.draw;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * One goods' records as a namespace's topics hold them, read from the start to their end as it is now (read
 * committed, no group): its commands, ledger entries and outcomes, from the goods' partition (the same number in every
 * topic: the key's default partition).
 */
public record DrawRecords(List<DrawCheck.Command> commands, List<LedgerEntry> ledger, List<Outcome> outcomes) {
    private static final Duration AT_MOST = Duration.ofSeconds(60);

    public static DrawRecords read(Settings settings, long goods) {
        Topics topics = new Topics(settings.topicPrefix());
        String key = Long.toString(goods);
        List<DrawCheck.Command> commands = new ArrayList<>();
        List<LedgerEntry> ledger = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : partitionOf(settings, topics, key)) {
            if (!key.equals(r.key())) continue;
            if (r.topic().equals(topics.commands()))
                commands.add(new DrawCheck.Command(r.offset(), r.key(), r.value()));
            else if (r.topic().equals(topics.ledger())) ledger.add(Json.read(r.value(), LedgerEntry.class));
            else outcomes.add(Json.read(r.value(), Outcome.class));
        }
        return new DrawRecords(commands, ledger, outcomes);
    }

    private static List<ConsumerRecord<String, byte[]>> partitionOf(Settings settings, Topics topics, String key) {
        Map<String, Object> conf = Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.CLIENT_ID_CONFIG,
                "draw-verify-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = KafkaClients.consumer(settings, conf)) {
            List<String> names = new ArrayList<>(List.of(topics.commands(), topics.ledger()));
            names.addAll(topics.outcomes());
            List<TopicPartition> parts = new ArrayList<>();
            for (String t : names) {
                int n = c.partitionsFor(t).size();
                parts.add(new TopicPartition(
                        t, Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % n));
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + AT_MOST.toNanos();
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline)
                    throw new IllegalStateException("could not read " + names + " to their end in " + AT_MOST);
                c.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }
}
