package dev.seckill.gateway.status;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Where the broker appended a purchase's command, from the producer's acknowledgment: the partition and offset of
 * {@code <prefix>commands}, and the append time ({@code RecordMetadata.timestamp()}: the broker's clock, the commands
 * topic being {@code message.timestamp.type=LogAppendTime}; on a topic left at CreateTime, the gateway's send time). With
 * it a buyer finds their leaf in a draw's published entry digest ({@code ./seckill draw verify --request ID}): a record
 * appended after the OPENED entry's {@code cutoffAt} is not an entry.
 */
public record EntryReceipt(int partition, long offset, Instant appendedAt) {
    /** The receipt of an acknowledged send; null when the acknowledgment names no offset (it always does with acks=all). */
    public static EntryReceipt of(RecordMetadata meta) {
        if (meta == null || !meta.hasOffset() || !meta.hasTimestamp()) return null;
        return new EntryReceipt(meta.partition(), meta.offset(), Instant.ofEpochMilli(meta.timestamp()));
    }

    /** {@code {"partition":P,"offset":O,"appendedAt":"<instant>"}}. */
    public JsonObject json() {
        return new JsonObject()
                .put("partition", partition)
                .put("offset", offset)
                .put("appendedAt", appendedAt.toString());
    }
}
