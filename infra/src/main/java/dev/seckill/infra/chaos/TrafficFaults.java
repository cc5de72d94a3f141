package dev.seckill.infra.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.dlq.DeadLetters;
import dev.seckill.infra.harness.TopicRecords;
import dev.seckill.kit.kafka.ReliableProducers;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Faults that arrive as traffic: a poison storm on {@code <prefix>commands} in the sale's own partition, and the same
 * purchase produced again and again by an upstream service. Their checks read the topics after the drain.
 */
final class TrafficFaults {
    static final int POISON_PER_BURST = 100;
    static final int UPSTREAM_PURCHASES = 40;
    static final int UPSTREAM_COPIES = 5;

    private TrafficFaults() {}

    /**
     * Three bursts of {@value #POISON_PER_BURST} hostile records (malformed JSON, binary, unknown types, missing or
     * hostile ids, out-of-range fields) keyed like the sale's purchases, 0.5–1.5 s apart. Checks: every record nobody
     * can answer is in the DLQ with its reason, every invalid purchase with an id is answered REJECTED once.
     */
    static ChaosScenario.Fault poisonStorm() {
        return t -> {
            List<byte[]> sent = new ArrayList<>();
            try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(t.settings)) {
                for (int burst = 0; burst < 3; burst++) {
                    if (burst > 0 && !t.pause(500, 1_500)) break;
                    long at = System.nanoTime();
                    for (int i = 0; i < POISON_PER_BURST; i++) {
                        byte[] poison = PoisonRecords.make(t.random, t.goods, sent.size());
                        producer.send(new ProducerRecord<>(t.topics.commands(), Long.toString(t.goods), poison));
                        sent.add(poison);
                    }
                    producer.flush();
                    t.injected(at);
                }
            }
            int poison = 0;
            Map<String, Integer> invalid = new HashMap<>();
            for (byte[] p : sent) {
                ParsedCommand parsed = CommandCodec.decode(p);
                if (parsed instanceof ParsedCommand.Poison) poison++;
                else if (parsed instanceof ParsedCommand.InvalidPurchase ip)
                    invalid.merge(ip.requestId(), 1, Integer::sum);
            }
            int expectedPoison = poison;
            t.check(
                    "the DLQ holds the " + poison + " poison records, each with its reason; the " + invalid.size()
                            + " invalid purchases answered REJECTED once each",
                    () -> {
                        List<ConsumerRecord<String, byte[]>> dlq =
                                TopicRecords.read(t.settings, List.of(t.topics.dlq()));
                        long reasoned = dlq.stream().filter(r -> hasError(r)).count();
                        if (dlq.size() != expectedPoison || reasoned != dlq.size())
                            return "DLQ holds " + dlq.size() + " records (" + reasoned + " with a reason), "
                                    + expectedPoison + " poison records were sent";
                        return onceEach(t, invalid, "REJECTED");
                    });
        };
    }

    private static boolean hasError(ConsumerRecord<String, byte[]> r) {
        Header h = r.headers().lastHeader(DeadLetters.ERROR);
        return h != null && h.value() != null && h.value().length > 0;
    }

    /**
     * {@value #UPSTREAM_PURCHASES} purchases of new buyers, each produced {@value #UPSTREAM_COPIES} times (an upstream
     * producer retrying), the copies interleaved with the sale. Checks: one outcome per requestId; a SUCCESS has its
     * order, and no buyer two.
     */
    static ChaosScenario.Fault upstreamRetries() {
        return t -> {
            long at = System.nanoTime();
            String run = Long.toString(at, 36);
            Map<String, Integer> ids = new HashMap<>();
            Map<String, Long> users = new HashMap<>();
            try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(t.settings)) {
                for (int copy = 0; copy < UPSTREAM_COPIES; copy++) {
                    if (copy > 0 && !t.pause(100, 600)) break;
                    for (int i = 0; i < UPSTREAM_PURCHASES; i++) {
                        String rid = "upstream-" + run + "-" + i;
                        long user = 50_000_000L + i;
                        Purchase p = new Purchase(rid, t.goods, user, 1, Instant.now());
                        producer.send(new ProducerRecord<>(t.topics.commands(), p.key(), CommandCodec.encode(p)));
                        ids.put(rid, 1);
                        users.put(rid, user);
                    }
                    producer.flush();
                }
            }
            t.injected(at);
            t.check(
                    "each of the " + ids.size() + " upstream requestIds (" + UPSTREAM_COPIES
                            + " copies each) has one outcome; a SUCCESS has its order",
                    () -> {
                        String once = onceEach(t, ids, null);
                        if (once != null) return once;
                        return successesHaveOrders(t, users);
                    });
            ClientRetries.run(t);
        };
    }

    /** Each requestId in {@code ids} has exactly one outcome (of {@code kind}, when given); null when so. */
    static String onceEach(ChaosTarget t, Map<String, Integer> ids, String kind) throws IOException {
        Map<String, List<String>> seen = outcomes(t);
        for (String rid : ids.keySet()) {
            List<String> got = seen.getOrDefault(rid, List.of());
            if (got.size() != 1 || (kind != null && !got.get(0).equals(kind)))
                return "requestId " + rid + " has outcomes " + got + " (expected one" + (kind == null ? "" : " " + kind)
                        + ")";
        }
        return null;
    }

    /** requestId → the outcome kinds its records on the outcome topics carry. */
    static Map<String, List<String>> outcomes(ChaosTarget t) throws IOException {
        Map<String, List<String>> seen = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : TopicRecords.read(t.settings, t.topics.outcomes())) {
            JsonNode n = Json.MAPPER.readTree(r.value());
            seen.computeIfAbsent(n.path("requestId").asText(), k -> new ArrayList<>())
                    .add(n.path("outcome").asText());
        }
        return seen;
    }

    /** Every requestId answered SUCCESS has its buyer's live order; null when so. */
    static String successesHaveOrders(ChaosTarget t, Map<String, Long> users) throws Exception {
        Map<String, List<String>> seen = outcomes(t);
        try (Connection c = t.db()) {
            for (var e : users.entrySet()) {
                boolean success = seen.getOrDefault(e.getKey(), List.of()).contains("SUCCESS");
                long orders = liveOrdersOf(c, t.goods, e.getValue());
                if (orders > 1 || (success && orders == 0))
                    return "buyer " + e.getValue() + " (" + e.getKey() + ", SUCCESS " + success + ") holds " + orders
                            + " orders";
            }
        }
        return null;
    }

    static long liveOrdersOf(Connection c, long goods, long user) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND"
                + " user_id = ? AND status IN ('CREATED', 'PAYING', 'PAID')")) {
            q.setLong(1, goods);
            q.setLong(2, user);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
