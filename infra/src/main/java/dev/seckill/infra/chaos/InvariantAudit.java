package dev.seckill.infra.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.redis.RedisConnections;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import redis.clients.jedis.UnifiedJedis;

/**
 * The invariants 1, 3, 4 and 5 of docs/invariants.md after a scenario drained, read from the sources themselves — the outcome and
 * ledger topics, Redis, the DB — never from a service: no oversell and Redis stock never below 0 (1); every SUCCESS
 * outcome is exactly one live order, unless its units were released since (a payment timeout, a cancel), and no
 * order is without one (3); Redis stock = DB stock = the ledger's fold (4); no purchase (goodsId, requestId) has two
 * outcomes (5: the stream's REJECTED invalid to a requestId reused for another purchase answers that other one). Invariant 2 is the DB audit's (one unit per buyer); 6 (determinism) and 7 (paid
 * orders) are not what a fault breaks here.
 */
public final class InvariantAudit {
    public static final String WHAT = "docs/invariants.md invariants 1, 3, 4, 5 read from the topics, Redis and the DB";
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(30);

    private InvariantAudit() {}

    /** Null when every invariant holds (waiting up to 30 s for the writers' last batches); else the first broken. */
    public static String violation(Settings s, Connection c, long goods) throws Exception {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        String broken;
        do {
            broken = once(s, c, goods);
            if (broken == null) return null;
            TimeUnit.MILLISECONDS.sleep(500); // the order-writer's last batch may still be on its way
        } while (System.nanoTime() < deadline);
        return broken;
    }

    private static String once(Settings s, Connection c, long goods) throws Exception {
        Topics topics = new Topics(s.topicPrefix());
        Map<String, Integer> outcomes = new HashMap<>();
        Set<String> successes = new HashSet<>();
        for (ConsumerRecord<String, byte[]> r : TopicRecords.read(s, topics.outcomes())) {
            JsonNode n = Json.MAPPER.readTree(r.value());
            if (n.path("goodsId").asLong() != goods) continue;
            String rid = n.path("requestId").asText();
            if (SaleRecords.refusesReuse(n)) continue;
            if (outcomes.merge(rid, 1, Integer::sum) > 1) return "invariant 5: requestId " + rid + " has two outcomes";
            if (n.path("outcome").asText().equals("SUCCESS")) successes.add(rid);
        }
        long opened = 0;
        long deducted = 0;
        long released = 0;
        for (ConsumerRecord<String, byte[]> r : TopicRecords.read(s, List.of(topics.ledger()))) {
            JsonNode n = Json.MAPPER.readTree(r.value());
            if (n.path("goodsId").asLong() != goods) continue;
            long q = n.path("quantity").asLong();
            switch (n.path("type").asText()) {
                case "OPENED" -> opened += q;
                case "DEDUCTED" -> deducted += q;
                case "RELEASED" -> {
                    released += q;
                    successes.remove(n.path("requestId").asText());
                }
                default -> {}
            }
        }
        long fold = opened - deducted + released;
        long redis;
        try (UnifiedJedis jedis = RedisConnections.open(s)) {
            String v = jedis.get(new RedisKeys(s.redisPrefix()).stock(goods));
            redis = v == null ? Long.MIN_VALUE : Long.parseLong(v);
        }
        if (deducted - released > opened || (redis != Long.MIN_VALUE && redis < 0))
            return "invariant 1: deducted " + deducted + " - released " + released + " > opened " + opened
                    + ", Redis stock " + redis;
        Set<String> orders = liveOrderRequests(c, goods);
        if (!orders.equals(successes))
            return "invariant 3: " + successes.size() + " SUCCESS outcomes, " + orders.size() + " live orders, "
                    + diff(successes, orders) + " SUCCESS without an order, " + diff(orders, successes)
                    + " orders without a SUCCESS";
        long db = dbStock(c, goods);
        if (redis != fold || db != fold)
            return "invariant 4: Redis stock " + (redis == Long.MIN_VALUE ? "missing" : redis) + ", DB stock " + db
                    + ", ledger fold " + fold;
        return null;
    }

    private static long diff(Set<String> a, Set<String> b) {
        return a.stream().filter(x -> !b.contains(x)).count();
    }

    private static Set<String> liveOrderRequests(Connection c, long goods) throws Exception {
        Set<String> ids = new HashSet<>();
        try (PreparedStatement q = c.prepareStatement("SELECT request_id FROM purchase_order WHERE goods_id = ? AND"
                + " status IN ('CREATED', 'PAYING', 'PAID')")) {
            q.setLong(1, goods);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    private static long dbStock(Connection c, long goods) throws Exception {
        try (PreparedStatement q = c.prepareStatement("SELECT stock FROM sale WHERE goods_id = ?")) {
            q.setLong(1, goods);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getLong(1) : Long.MIN_VALUE;
            }
        }
    }
}
