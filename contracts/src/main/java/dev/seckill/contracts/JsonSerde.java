package dev.seckill.contracts;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** A Kafka serde for one contract record type. */
public final class JsonSerde<T> implements Serde<T> {
    private final Class<T> type;

    public JsonSerde(Class<T> type) { this.type = type; }

    @Override public Serializer<T> serializer() { return (topic, value) -> value == null ? null : Json.write(value); }

    @Override public Deserializer<T> deserializer() { return (topic, bytes) -> bytes == null ? null : Json.read(bytes, type); }
}
