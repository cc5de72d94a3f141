import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * An upstream service's purchase, produced straight to seckill's commands topic with kafka-clients alone (no project
 * code, no JSON library: the command is six fields, written below; a service would use the JSON library it has),
 * following docs/contracts.md, "Producing a purchase from an upstream service": a requestId of its
 * own, the goodsId as the key (default partitioner), acceptedAt when it took the order, acks=all with idempotence; then
 * its one outcome read from the four outcome topics (read_committed) by requestId. Prints {@code <requestId>
 * <OUTCOME>[/<reason>]}, or fails with no outcome in 60 s. Args: bootstrap, topic prefix, goodsId,
 * userId, [requestId].
 */
public final class PurchaseProducer {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String prefix = args[1];
        long goodsId = Long.parseLong(args[2]);
        long userId = Long.parseLong(args[3]);
        String requestId = args.length > 4 ? args[4] : "shop-example:" + UUID.randomUUID();
        // acceptedAt: when this service took the order (the sale's window judges it)
        String purchase = "{\"v\":1,\"type\":\"purchase\",\"requestId\":" + quoted(requestId) + ",\"goodsId\":" + goodsId
                + ",\"userId\":" + userId + ",\"quantity\":1,\"acceptedAt\":" + quoted(Instant.now().toString()) + "}";
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            ProducerRecord<String, byte[]> record =
                    new ProducerRecord<>(
                    prefix + "commands", Long.toString(goodsId), purchase.getBytes(StandardCharsets.UTF_8));
            // W3C Trace Context: its trace id reaches the order row (a retry under the same requestId joins the same trace)
            record.headers().add("traceparent", traceparent(requestId).getBytes(StandardCharsets.UTF_8));
            producer.send(record).get(); // taken only once Kafka acknowledged it; a resend under the same id is safe
        }

        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("isolation.level", "read_committed"); // stock-stream writes in transactions
        c.put("enable.auto.commit", "false");
        List<String> topics = List.of(prefix + "outcome.success", prefix + "outcome.sold-out",
                prefix + "outcome.duplicate", prefix + "outcome.rejected");
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String t : topics)
                consumer.partitionsFor(t).forEach(i -> partitions.add(new TopicPartition(t, i.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String outcome = new String(r.value(), StandardCharsets.UTF_8);
                    if (!requestId.equals(member(outcome, "requestId"))) continue;
                    String reason = member(outcome, "reason");
                    System.out.println(requestId + " " + member(outcome, "outcome") + (reason == null ? "" : "/" + reason));
                    return;
                }
            }
        }
        throw new IllegalStateException(requestId + ": no outcome in 60 s"); // exits 1 when run on its own
    }

    /** {@code text} as a JSON string: quoted, with quotes, backslashes and control characters escaped. */
    static String quoted(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    private static final Map<String, Pattern> MEMBERS = new HashMap<>();

    /**
     * A string member of an outcome (a flat JSON object whose requestId, outcome and reason hold no quote or backslash:
     * docs/contracts.md), found whole — a quoted name inside another string, such as {@code detail}, is escaped there
     * and does not match; null when it has none.
     */
    static String member(String outcome, String name) {
        Pattern p = MEMBERS.computeIfAbsent(
                name, n -> Pattern.compile("\"" + n + "\"\\s*:\\s*\"([^\"\\\\]*)\""));
        Matcher m = p.matcher(outcome);
        return m.find() ? m.group(1) : null;
    }

    /** A W3C traceparent whose trace id and span id are the SHA-256 of the requestId's first 16 and next 8 bytes. */
    static String traceparent(String requestId) throws Exception {
        byte[] h = MessageDigest.getInstance("SHA-256").digest(requestId.getBytes(StandardCharsets.UTF_8));
        HexFormat hex = HexFormat.of();
        return "00-" + hex.formatHex(h, 0, 16) + "-" + hex.formatHex(h, 16, 24) + "-01";
    }
}
