package dev.seckill.contracts.command;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.time.IsoInstants;
import java.io.IOException;
import java.time.Instant;

/** {@link CommandCodec}'s hot path for the one command that comes by the hundred thousand: a plain purchase. */
final class PurchaseFastPath {
    private PurchaseFastPath() {}

    /**
     * The hot path: a well-formed purchase with exactly the fields our producers write, read with Jackson's streaming
     * parser (no tree). Anything else — another type, an unknown, repeated or mistyped field, a value out of range,
     * trailing content — returns null and goes through {@link #decodeTree}, which gives the verdict and the reason.
     */
    static Purchase parse(byte[] raw) {
        try (JsonParser p = Json.MAPPER.getFactory().createParser(raw)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            Fields f = new Fields();
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                if (!f.take(field, p.nextToken(), p)) return null;
            }
            if (t != JsonToken.END_OBJECT || p.nextToken() != null) return null;
            return f.purchase();
        } catch (IOException e) {
            return null;
        }
    }

    /** The fields read so far; each may come once, with the JSON type our producers write. */
    private static final class Fields {
        String type;
        String requestId;
        String acceptedAt;
        long goodsId = -1;
        long userId = -1;
        long quantity = -1;
        boolean v;

        /** Takes one field; false for anything the hot path leaves to the tree decoder. */
        boolean take(String field, JsonToken value, JsonParser p) throws IOException {
            boolean integral =
                    value == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
            boolean text = value == JsonToken.VALUE_STRING;
            switch (field) {
                case "v" -> {
                    if (v || !integral || p.getLongValue() != 1) return false;
                    v = true;
                }
                case "type" -> {
                    if (type != null || !text) return false;
                    type = p.getText();
                }
                case "requestId" -> {
                    if (requestId != null || !text) return false;
                    requestId = p.getText();
                }
                case "acceptedAt" -> {
                    if (acceptedAt != null || !text) return false;
                    acceptedAt = p.getText();
                }
                case "goodsId" -> {
                    if (goodsId != -1 || !integral) return false;
                    goodsId = p.getLongValue();
                }
                case "userId" -> {
                    if (userId != -1 || !integral) return false;
                    userId = p.getLongValue();
                }
                case "quantity" -> {
                    if (quantity != -1 || !integral) return false;
                    quantity = p.getLongValue();
                }
                default -> {
                    return false;
                }
            }
            return true;
        }

        /** The purchase, when every field is there and in range; else null. */
        Purchase purchase() {
            if (!"purchase".equals(type)
                    || goodsId <= 0
                    || userId <= 0
                    || !CommandRules.validQuantity(quantity)
                    || !CommandRules.validRequestId(requestId)
                    || acceptedAt == null) {
                return null;
            }
            Instant at = IsoInstants.parse(acceptedAt);
            return at == null ? null : new Purchase(requestId, goodsId, userId, (int) quantity, at);
        }
    }
}
