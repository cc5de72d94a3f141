package dev.seckill.infra.harness.draw;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.infra.harness.TopicRecords;
import dev.seckill.kit.config.Settings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Utils;

/**
 * One goods' records as a namespace's topics hold them, read from the start to their end as it is now (read
 * committed, no group): its commands, ledger entries and outcomes, from the goods' partition (the same number in every
 * topic: the key's default partition).
 */
public record DrawRecords(List<DrawCheck.Command> commands, List<LedgerEntry> ledger, List<Outcome> outcomes) {
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

    /** The goods' partition of the commands, the ledger and the outcome topics: the key's default partition. */
    private static List<ConsumerRecord<String, byte[]>> partitionOf(Settings settings, Topics topics, String key) {
        List<String> names = new ArrayList<>(List.of(topics.commands(), topics.ledger()));
        names.addAll(topics.outcomes());
        int hash = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8)));
        return TopicRecords.read(settings, names, n -> hash % n);
    }
}
