package dev.seckill.infra.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.dlq.DeadLetters;
import dev.seckill.infra.harness.TopicRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A goods' records as the scenarios' checks read them after the drain: its ledger entries and outcomes from the topics
 * (JSON), the dead letters with their reasons, and its order rows from the DB. A purchase is (goodsId, requestId).
 */
final class SaleRecords {
    /**
     * A record of {@code <prefix>dlq}: its value as text, the reason in its error header, and the topic it was read from
     * (its {@code source-topic} header; "" when absent): {@code <prefix>commands} for stock-stream's, the ledger or
     * payments topic for the order-writer's.
     */
    record DeadLetter(String value, String error, String sourceTopic) {}

    /** One row of {@code purchase_order}. */
    record OrderRow(long orderId, long userId, String status) {
        boolean live() {
            return status.equals("CREATED") || status.equals("PAYING") || status.equals("PAID");
        }
    }

    private SaleRecords() {}

    static List<JsonNode> ledger(ChaosTarget t, long goods) throws IOException {
        return ofGoods(t, List.of(t.topics.ledger()), goods);
    }

    static List<JsonNode> outcomes(ChaosTarget t, long goods) throws IOException {
        return ofGoods(t, t.topics.outcomes(), goods);
    }

    private static List<JsonNode> ofGoods(ChaosTarget t, List<String> topics, long goods) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : TopicRecords.read(t.settings, topics)) {
            JsonNode n = Json.MAPPER.readTree(r.value());
            if (n.path("goodsId").asLong() == goods) out.add(n);
        }
        return out;
    }

    static List<DeadLetter> dlq(ChaosTarget t) {
        List<DeadLetter> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : TopicRecords.read(t.settings, List.of(t.topics.dlq()))) {
            out.add(new DeadLetter(
                    r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8),
                    header(r, DeadLetters.ERROR),
                    header(r, DeadLetters.SOURCE_TOPIC)));
        }
        return out;
    }

    private static String header(ConsumerRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null || h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The ledger entry with {@code opId}, or null. */
    static JsonNode entry(List<JsonNode> ledger, String opId) {
        List<JsonNode> all = entries(ledger, opId);
        return all.isEmpty() ? null : all.get(0);
    }

    /**
     * The entries of operation {@code opId}: its own, or — a goods split into buckets — each bucket's share of it
     * ({@code <opId>@b<bucket>}, docs/contracts.md).
     */
    static List<JsonNode> entries(List<JsonNode> ledger, String opId) {
        return ledger.stream()
                .filter(n -> n.path("opId").asText().equals(opId)
                        || n.path("opId").asText().startsWith(opId + "@b"))
                .toList();
    }

    /** An outcome that refuses a reused requestId (REJECTED invalid with a detail): another purchase's answer. */
    static boolean refusesReuse(JsonNode outcome) {
        return outcome.path("outcome").asText().equals("REJECTED")
                && outcome.path("reason").asText().equals("invalid")
                && !outcome.path("detail").asText().isBlank();
    }

    /** requestId → the outcomes of the goods' purchase under it (reuse refusals left out: they answer another one). */
    static Map<String, List<String>> decisions(List<JsonNode> outcomes) {
        Map<String, List<String>> out = new HashMap<>();
        for (JsonNode n : outcomes)
            if (!refusesReuse(n))
                out.computeIfAbsent(n.path("requestId").asText(), k -> new ArrayList<>())
                        .add(n.path("outcome").asText());
        return out;
    }

    /** requestId → the goods' order rows under it (every status). */
    static Map<String, List<OrderRow>> orders(Connection c, long goods) throws SQLException {
        Map<String, List<OrderRow>> out = new HashMap<>();
        try (PreparedStatement q = c.prepareStatement(
                "SELECT request_id, order_id, user_id, status FROM purchase_order WHERE goods_id = ?")) {
            q.setLong(1, goods);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next())
                    out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new OrderRow(rs.getLong(2), rs.getLong(3), rs.getString(4)));
            }
        }
        return out;
    }

    /**
     * Waits (polling every 10 ms, at most 60 s) until the goods' order of {@code rid} exists, with {@code status} when
     * not null; returns its id.
     */
    static long awaitOrder(ChaosTarget t, long goods, String rid, String status) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Connection c = t.db()) {
                for (OrderRow r : orders(c, goods).getOrDefault(rid, List.of()))
                    if (status == null || r.status().equals(status)) return r.orderId();
            }
            TimeUnit.MILLISECONDS.sleep(10); // the order-writer, another process, writes it
        }
        throw new IllegalStateException(
                "no " + (status == null ? "" : status + " ") + "order of " + rid + " within 60 s");
    }
}
