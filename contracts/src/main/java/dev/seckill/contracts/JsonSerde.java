package dev.seckill.contracts;

import java.util.function.Function;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** A Kafka serde for one contract record type. */
public final class JsonSerde<T> implements Serde<T> {
    private final Class<T> type;
    private final Function<T, byte[]> encoder;

    public JsonSerde(Class<T> type) {
        this(type, Json::write);
    }

    /** @param encoder writes a value exactly as {@link Json#write} would, faster (a hand-written hot path) */
    public JsonSerde(Class<T> type, Function<T, byte[]> encoder) {
        this.type = type;
        this.encoder = encoder;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> value == null ? null : encoder.apply(value);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> bytes == null ? null : Json.read(bytes, type);
    }
}
