import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the four outcome topics of seckill with only kafka-clients and Jackson (no project code): one line per
 * decision, then the count per outcome. See docs/contracts.md. Args: [bootstrap] [topic prefix] [group] [idle seconds
 * before exiting, 0 = run until killed].
 */
public final class OutcomeConsumer {
    public static void main(String[] args) throws IOException {
        String prefix = args.length > 1 ? args[1] : "seckill.";
        int idleLimit = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        Properties props = new Properties();
        props.put("bootstrap.servers", args.length > 0 ? args[0] : "127.0.0.1:19092");
        props.put("group.id", args.length > 2 ? args[2] : "outcome-consumer-example");
        props.put("auto.offset.reset", "earliest");
        props.put("isolation.level", "read_committed"); // stock-stream writes in transactions: skip aborted attempts
        ObjectMapper json = new ObjectMapper(); // a tree: fields this reader does not know are ignored (versioning rule)
        Map<String, Integer> counts = new TreeMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(prefix + "outcome.success", prefix + "outcome.sold-out", prefix + "outcome.duplicate",
                    prefix + "outcome.rejected"));
            for (int idle = 0; idleLimit == 0 || idle < idleLimit; ) {
                var records = consumer.poll(Duration.ofSeconds(1));
                idle = records.isEmpty() ? idle + 1 : 0;
                for (ConsumerRecord<String, byte[]> r : records) {
                    JsonNode o = json.readTree(r.value());
                    if (o == null || o.path("v").asInt() != 1) { // a version this reader was not written for
                        System.err.printf("skipped %s-%d@%d: not v1%n", r.topic(), r.partition(), r.offset());
                        continue;
                    }
                    Header trace = r.headers().lastHeader("traceId");
                    String outcome = o.path("outcome").asText() + (o.has("reason") ? "/" + o.get("reason").asText() : "");
                    counts.merge(outcome, 1, Integer::sum);
                    System.out.printf("%s goods=%s user=%d qty=%d %s stockAfter=%d trace=%s%n", o.path("requestId").asText(),
                            r.key(), o.path("userId").asLong(), o.path("quantity").asInt(), outcome, o.path("stockAfter").asLong(),
                            trace == null ? "-" : new String(trace.value(), StandardCharsets.UTF_8));
                }
                consumer.commitSync();
            }
        }
        System.out.println("outcomes: " + counts);
    }
}
