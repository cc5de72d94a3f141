package dev.seckill.contracts.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.time.IsoInstants;
import java.time.Instant;

/** Reading a command's fields from the JSON tree, the way {@link CommandCodec} judges them. */
final class JsonFields {
    private JsonFields() {}

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    /** The field as a positive long, or -1 when missing, not integral or not positive. */
    static long positiveLong(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null) return -1;
        if (v.isIntegralNumber() && v.canConvertToLong()) return v.asLong() > 0 ? v.asLong() : -1;
        if (v.isTextual()) {
            try {
                long l = Long.parseLong(v.asText());
                return l > 0 ? l : -1;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return -1;
    }

    static Instant instant(JsonNode n, String field) {
        String s = text(n, field);
        return s == null ? null : IsoInstants.parse(s);
    }
}
