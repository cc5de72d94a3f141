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
            String type = null;
            String requestId = null;
            String acceptedAt = null;
            long goodsId = -1;
            long userId = -1;
            long quantity = -1;
            boolean v = false;
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                boolean integral =
                        value == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
                switch (field) {
                    case "v" -> {
                        if (v || !integral || p.getLongValue() != 1) return null;
                        v = true;
                    }
                    case "type" -> {
                        if (type != null || value != JsonToken.VALUE_STRING) return null;
                        type = p.getText();
                    }
                    case "requestId" -> {
                        if (requestId != null || value != JsonToken.VALUE_STRING) return null;
                        requestId = p.getText();
                    }
                    case "acceptedAt" -> {
                        if (acceptedAt != null || value != JsonToken.VALUE_STRING) return null;
                        acceptedAt = p.getText();
                    }
                    case "goodsId" -> {
                        if (goodsId != -1 || !integral) return null;
                        goodsId = p.getLongValue();
                    }
                    case "userId" -> {
                        if (userId != -1 || !integral) return null;
                        userId = p.getLongValue();
                    }
                    case "quantity" -> {
                        if (quantity != -1 || !integral) return null;
                        quantity = p.getLongValue();
                    }
                    default -> {
                        return null;
                    }
                }
            }
            if (t != JsonToken.END_OBJECT || p.nextToken() != null) return null;
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
        } catch (IOException e) {
            return null;
        }
    }
}
