package dev.seckill.contracts.dlq;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/**
 * The headers of a dead letter on {@code <p>dlq} ({@code dlq-headers.json}): why the record could not be used and where
 * it came from. The one writer of them, for every service that dead-letters a record (stock-stream, order-writer); the
 * record keeps its own headers next to these.
 */
public final class DeadLetters {
    /** Why the record is dead: a short reason. */
    public static final String ERROR = "error";

    public static final String SOURCE_TOPIC = "source-topic";
    /** The source partition, in decimal. */
    public static final String SOURCE_PARTITION = "source-partition";
    /** The source offset, in decimal. */
    public static final String SOURCE_OFFSET = "source-offset";

    private DeadLetters() {}

    /** Sets the four dead-letter headers on {@code headers}, replacing any of the same name. */
    public static void mark(Headers headers, String error, String sourceTopic, int sourcePartition, long sourceOffset) {
        put(headers, ERROR, error);
        put(headers, SOURCE_TOPIC, sourceTopic);
        put(headers, SOURCE_PARTITION, Integer.toString(sourcePartition));
        put(headers, SOURCE_OFFSET, Long.toString(sourceOffset));
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
