package dev.seckill.gateway.door;

import dev.seckill.contracts.command.CommandRules;
import dev.seckill.gateway.status.Payload;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;

/** A validated {@code POST /api/purchases} body. Validation names the offending field. */
record PurchaseRequest(String requestId, long goodsId, long userId, int quantity) {

    /** What the requestId stands for: a reuse with another payload is refused. */
    Payload payload() {
        return new Payload(goodsId, userId, quantity);
    }

    /** Thrown for a request the gateway refuses with 400. */
    static final class Invalid extends Exception {
        final String field;

        Invalid(String field, String message) {
            super(message);
            this.field = field;
        }
    }

    /** The body names another buyer than the verified token: 403. */
    static final class Forbidden extends Exception {
        Forbidden(String message) {
            super(message);
        }
    }

    /**
     * @param authenticatedUser the userId of a verified token, or null when auth is off; with a token the body's
     *                          userId may be left out, and must match when given
     */
    static PurchaseRequest parse(String body, Long authenticatedUser) throws Invalid, Forbidden {
        if (body == null || body.isBlank()) throw new Invalid("body", "body must be a JSON object");
        JsonObject json;
        try {
            json = new JsonObject(body);
        } catch (DecodeException | ClassCastException e) {
            throw new Invalid("body", "body is not valid JSON");
        }
        long goodsId = positiveLong(json, "goodsId", true);
        long userId = positiveLong(json, "userId", authenticatedUser == null);
        if (authenticatedUser != null) {
            if (userId != 0 && userId != authenticatedUser) {
                throw new Forbidden("userId " + userId + " is not the buyer of the bearer token");
            }
            userId = authenticatedUser;
        }
        long quantity = json.containsKey("quantity") ? positiveLong(json, "quantity", true) : 1;
        if (!CommandRules.validQuantity(quantity)) {
            throw new Invalid("quantity", "quantity must be between 1 and " + CommandRules.MAX_QUANTITY);
        }
        Object rid = json.getValue("requestId");
        String requestId = null;
        if (rid != null) {
            if (!(rid instanceof String s) || !CommandRules.validRequestId(s)) {
                throw new Invalid("requestId", "requestId must be 1-64 characters of [A-Za-z0-9._:-]");
            }
            requestId = s;
        }
        return new PurchaseRequest(requestId, goodsId, userId, (int) quantity);
    }

    /** The valid requestId a body names, whatever else is wrong with it; null when it names none (or not JSON). */
    static String namedRequestId(String body) {
        if (body == null || body.isBlank()) return null;
        try {
            Object rid = new JsonObject(body).getValue("requestId");
            return rid instanceof String s && CommandRules.validRequestId(s) ? s : null;
        } catch (DecodeException | ClassCastException notAnObject) {
            return null;
        }
    }

    private static long positiveLong(JsonObject json, String field, boolean required) throws Invalid {
        Object v = json.getValue(field);
        if (v == null) {
            if (required) throw new Invalid(field, field + " is required");
            return 0;
        }
        if (!(v instanceof Number n)
                || n.doubleValue() != Math.rint(n.doubleValue())
                || v instanceof Double && Double.isInfinite((Double) v)) {
            throw new Invalid(field, field + " must be a positive integer");
        }
        if (n instanceof Double || n instanceof Float) {
            if (n.doubleValue() > Long.MAX_VALUE) throw new Invalid(field, field + " is out of range");
        }
        if (v instanceof BigInteger || v instanceof BigDecimal) throw new Invalid(field, field + " is out of range");
        long l = n.longValue();
        if (l <= 0) throw new Invalid(field, field + " must be a positive integer");
        return l;
    }
}
