package dev.seckill.infra.harness.draw;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.infra.harness.TopicRecords;
import dev.seckill.kit.config.Settings;
import dev.seckill.stock.draw.beacon.BeaconChain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Utils;

/**
 * One goods' recorded sale, as a namespace's topics hold it or as {@code draw export} wrote it to a file: its commands
 * (with the broker's time of each), ledger entries and outcomes, from the goods' partition (the same number in every
 * topic: the key's default partition), and the beacon chain its draws name (null when not known).
 * {@code allowCreateTime}: a drill's copy, whose records keep their recorded times as CreateTime.
 */
public record DrawRecords(
        long goodsId,
        BeaconChain chain,
        List<DrawCheck.Command> commands,
        List<Long> ledgerOffsets,
        List<LedgerEntry> ledger,
        List<String> outcomeTopics,
        List<Outcome> outcomes,
        boolean allowCreateTime) {
    public static final String FORMAT = "seckill-draw-record:v1";

    /**
     * Reads the goods' records from the topics of {@code settings}' namespace; {@code chains} resolves the chain hash
     * the drawn OPENED entries name (null: not known).
     */
    public static DrawRecords read(Settings settings, long goods, Function<String, BeaconChain> chains) {
        Topics topics = new Topics(settings.topicPrefix());
        String key = Long.toString(goods);
        List<DrawCheck.Command> commands = new ArrayList<>();
        List<Long> ledgerOffsets = new ArrayList<>();
        List<LedgerEntry> ledger = new ArrayList<>();
        List<String> outcomeTopics = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : partitionOf(settings, topics, key)) {
            if (!key.equals(r.key())) continue;
            if (r.topic().equals(topics.commands()))
                commands.add(
                        new DrawCheck.Command(r.offset(), r.key(), r.value(), r.timestamp(), r.timestampType().name));
            else if (r.topic().equals(topics.ledger())) {
                ledgerOffsets.add(r.offset());
                ledger.add(Json.read(r.value(), LedgerEntry.class));
            } else {
                outcomeTopics.add(r.topic());
                outcomes.add(Json.read(r.value(), Outcome.class));
            }
        }
        String hash = ledger.stream()
                .filter(e -> e.type() == LedgerType.OPENED && e.draw() != null)
                .map(e -> e.draw().beaconChain())
                .findFirst()
                .orElse(null);
        BeaconChain chain = hash == null ? null : chains.apply(hash);
        return new DrawRecords(goods, chain, commands, ledgerOffsets, ledger, outcomeTopics, outcomes, false);
    }

    /** These records, told that the commands are a drill's copies (CreateTime allowed). */
    public DrawRecords allowingCreateTime() {
        return new DrawRecords(goodsId, chain, commands, ledgerOffsets, ledger, outcomeTopics, outcomes, true);
    }

    /** The newest time the records show (commands' times, ledger entries' {@code at}): how far the recording goes. */
    public long newestTime() {
        long t = 0;
        for (DrawCheck.Command c : commands) t = Math.max(t, c.timestamp());
        for (LedgerEntry e : ledger) t = Math.max(t, e.at().toEpochMilli());
        return t;
    }

    /** The recorded sale as one JSON document (docs/contracts.md, "Checking a draw"). */
    public byte[] export() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("goodsId", goodsId);
        if (chain != null) {
            ObjectNode b = root.putObject("beacon");
            b.put("chain", chain.hash());
            b.put("publicKey", chain.publicKeyHex());
            b.put("genesis", chain.genesisSeconds());
            b.put("period", chain.periodSeconds());
            b.put("scheme", chain.scheme());
        }
        ArrayNode cs = root.putArray("commands");
        for (DrawCheck.Command c : commands) {
            ObjectNode o = cs.addObject();
            o.put("offset", c.offset());
            o.put("timestamp", c.timestamp());
            o.put("timestampType", c.timestampType());
            o.put("key", c.key());
            o.put("value", Base64.getEncoder().encodeToString(c.raw()));
        }
        ArrayNode ls = root.putArray("ledger");
        for (int i = 0; i < ledger.size(); i++) {
            ObjectNode o = ls.addObject();
            o.put("offset", ledgerOffsets.get(i));
            o.set("entry", Json.MAPPER.valueToTree(ledger.get(i)));
        }
        ArrayNode os = root.putArray("outcomes");
        for (int i = 0; i < outcomes.size(); i++) {
            ObjectNode o = os.addObject();
            o.put("topic", outcomeTopics.get(i));
            o.put("offset", outcomes.get(i).offset());
            o.set("outcome", Json.MAPPER.valueToTree(outcomes.get(i)));
        }
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A recorded sale from a file {@link #export} wrote. The chain is quicknet's built-in one when the file names its
     * hash (whatever key the file carries), else the file's own ({@code chains} may name another for the hash).
     */
    public static DrawRecords read(Path file, Function<String, BeaconChain> chains) throws IOException {
        JsonNode root = Json.MAPPER.readTree(Files.readAllBytes(file));
        if (!FORMAT.equals(root.path("format").asText()))
            throw new IllegalArgumentException(file + " is not a recorded draw (format " + FORMAT + ")");
        long goods = root.path("goodsId").asLong();
        BeaconChain chain = null;
        JsonNode b = root.path("beacon");
        if (!b.isMissingNode()) {
            String hash = b.path("chain").asText();
            chain = chains.apply(hash);
            if (chain == null && !hash.equals(BeaconChain.QUICKNET.hash()))
                chain = new BeaconChain(
                        hash,
                        Draw.unhex(b.path("publicKey").asText()),
                        b.path("genesis").asLong(),
                        b.path("period").asInt(),
                        b.path("scheme").asText());
            if (hash.equals(BeaconChain.QUICKNET.hash())) chain = BeaconChain.QUICKNET;
        }
        List<DrawCheck.Command> commands = new ArrayList<>();
        for (JsonNode c : root.path("commands"))
            commands.add(new DrawCheck.Command(
                    c.path("offset").asLong(),
                    c.path("key").asText(),
                    Base64.getDecoder().decode(c.path("value").asText()),
                    c.path("timestamp").asLong(),
                    c.path("timestampType").asText()));
        List<Long> ledgerOffsets = new ArrayList<>();
        List<LedgerEntry> ledger = new ArrayList<>();
        for (JsonNode l : root.path("ledger")) {
            ledgerOffsets.add(l.path("offset").asLong());
            ledger.add(Json.read(bytes(l.path("entry")), LedgerEntry.class));
        }
        List<String> outcomeTopics = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        for (JsonNode o : root.path("outcomes")) {
            outcomeTopics.add(o.path("topic").asText());
            outcomes.add(Json.read(bytes(o.path("outcome")), Outcome.class));
        }
        return new DrawRecords(goods, chain, commands, ledgerOffsets, ledger, outcomeTopics, outcomes, false);
    }

    private static byte[] bytes(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The goods' partition of the commands, the ledger and the outcome topics: the key's default partition. */
    private static List<ConsumerRecord<String, byte[]>> partitionOf(Settings settings, Topics topics, String key) {
        List<String> names = new ArrayList<>(List.of(topics.commands(), topics.ledger()));
        names.addAll(topics.outcomes());
        int hash = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8)));
        return TopicRecords.read(settings, names, n -> hash % n);
    }
}
