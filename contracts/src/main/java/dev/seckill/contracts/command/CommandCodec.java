package dev.seckill.contracts.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.time.IsoInstants;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.Function;

/**
 * JSON encoding of commands ({@code "v":1}, {@code "type"} decides the rest), and a decoder that never throws:
 * it says what a record is, and why when it is not a command.
 */
public final class CommandCodec {
    private CommandCodec() {}

    public static byte[] encode(Command command) {
        if (command instanceof Purchase p && plain(p.requestId())) return purchase(p);
        return encodeTree(command);
    }

    /**
     * A purchase written by hand, byte for byte what {@link #encodeTree} writes (the gateway encodes one per request):
     * only for a requestId that needs no JSON escaping.
     */
    private static byte[] purchase(Purchase p) {
        StringBuilder b = new StringBuilder(160)
                .append("{\"v\":1,\"type\":\"purchase\",\"requestId\":\"")
                .append(p.requestId())
                .append("\",\"goodsId\":")
                .append(p.goodsId())
                .append(",\"userId\":")
                .append(p.userId())
                .append(",\"quantity\":")
                .append(p.quantity())
                .append(",\"acceptedAt\":\"");
        return IsoInstants.append(b, p.acceptedAt()).append("\"}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** True when {@code s} can be written between JSON quotes as it is (printable ASCII, no quote, no backslash). */
    public static boolean plain(String s) {
        if (s == null) return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || c > 0x7e) return false;
        }
        return true;
    }

    /** Every command through Jackson's tree model. */
    static byte[] encodeTree(Command command) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("v", 1);
        if (command instanceof Purchase p) {
            n.put("type", "purchase")
                    .put("requestId", p.requestId())
                    .put("goodsId", p.goodsId())
                    .put("userId", p.userId())
                    .put("quantity", p.quantity())
                    .put("acceptedAt", p.acceptedAt().toString());
        } else if (command instanceof OpenSale o) {
            n.put("type", "open_sale")
                    .put("goodsId", o.goodsId())
                    .put("stock", o.stock())
                    .put("startAt", o.startAt().toString())
                    .put("endAt", o.endAt().toString())
                    .put("perUserLimit", o.perUserLimit())
                    .put("opId", o.opId());
            if (o.force()) n.put("force", true);
            if (o.fairness().drawn()) n.put("fairness", o.fairness().wire()).put("windowMs", o.windowMs());
            if (o.bucketed()) n.put("buckets", o.buckets());
        } else if (command instanceof Release r) {
            n.put("type", "release")
                    .put("goodsId", r.goodsId())
                    .put("userId", r.userId())
                    .put("quantity", r.quantity());
            if (r.orderId() != null) n.put("orderId", r.orderId());
            if (r.requestId() != null) n.put("requestId", r.requestId());
            n.put("reason", r.reason()).put("opId", r.opId());
        } else if (command instanceof CloseSale c) {
            n.put("type", "close_sale").put("goodsId", c.goodsId()).put("opId", c.opId());
        } else if (command instanceof Restore r) {
            n.put("type", "restore").put("goodsId", r.goodsId()).put("opId", r.opId());
        } else if (command instanceof Pay p) {
            n.put("type", "pay")
                    .put("goodsId", p.goodsId())
                    .put("userId", p.userId())
                    .put("requestId", p.requestId())
                    .put("orderId", p.orderId())
                    .put("paymentId", p.paymentId())
                    .put("opId", p.opId());
        }
        return Json.write(n);
    }

    public static ParsedCommand decode(byte[] raw) {
        if (raw == null) return new ParsedCommand.Poison("empty record");
        Purchase fast = plainPurchase(raw);
        return fast != null ? new ParsedCommand.Valid(fast) : decodeTree(raw);
    }

    /** The hot path ({@link PurchaseFastPath}): a plain purchase without a tree, or null. */
    static Purchase plainPurchase(byte[] raw) {
        return PurchaseFastPath.parse(raw);
    }

    /** Every command, through Jackson's tree model: the verdict and the reason for anything the hot path does not take. */
    static ParsedCommand decodeTree(byte[] raw) {
        JsonNode n;
        try {
            n = Json.MAPPER.readTree(raw);
        } catch (IOException e) {
            return new ParsedCommand.Poison("malformed JSON: " + firstLine(e.getMessage()));
        }
        if (n == null || !n.isObject()) return new ParsedCommand.Poison("malformed JSON: not an object");
        if (n.has("v") && n.get("v").asInt(-1) != 1) return new ParsedCommand.Poison("unsupported v: " + n.get("v"));
        String type = JsonFields.text(n, "type");
        if (type == null) return new ParsedCommand.Poison("missing type");
        long goodsId = JsonFields.positiveLong(n, "goodsId");
        if (goodsId <= 0 && isKnownType(type))
            return new ParsedCommand.Poison("goodsId missing or not a positive integer");
        return switch (type) {
            case "purchase" -> purchase(n, goodsId);
            case "open_sale" -> openSale(n, goodsId);
            case "release" -> release(n, goodsId);
            case "close_sale" -> withOpId(n, opId -> new CloseSale(goodsId, opId));
            case "restore" -> withOpId(n, opId -> new Restore(goodsId, opId));
            case "pay" -> pay(n, goodsId);
            default -> new ParsedCommand.Poison("unknown type: " + type);
        };
    }

    private static boolean isKnownType(String type) {
        return switch (type) {
            case "purchase", "open_sale", "release", "close_sale", "restore", "pay" -> true;
            default -> false;
        };
    }

    private static ParsedCommand purchase(JsonNode n, long goodsId) {
        String requestId = JsonFields.text(n, "requestId");
        if (!CommandRules.validRequestId(requestId)) {
            return new ParsedCommand.Poison("requestId missing or not 1-64 of [A-Za-z0-9._:-]");
        }
        long userId = JsonFields.positiveLong(n, "userId");
        long quantity = JsonFields.positiveLong(n, "quantity");
        Instant acceptedAt = JsonFields.instant(n, "acceptedAt");
        int q = (int) Math.max(0, Math.min(quantity, Integer.MAX_VALUE));
        String problem = null;
        if (userId <= 0) problem = "userId missing or not a positive integer";
        else if (!CommandRules.validQuantity(quantity))
            problem = "quantity missing or not in 1.." + CommandRules.MAX_QUANTITY;
        else if (acceptedAt == null) problem = "acceptedAt missing or not an ISO-8601 instant";
        if (problem != null) {
            return new ParsedCommand.InvalidPurchase(requestId, goodsId, Math.max(userId, 0), q, acceptedAt, problem);
        }
        return new ParsedCommand.Valid(new Purchase(requestId, goodsId, userId, q, acceptedAt));
    }

    private static ParsedCommand openSale(JsonNode n, long goodsId) {
        String opId = JsonFields.text(n, "opId");
        if (!CommandRules.validOpId(opId)) return new ParsedCommand.Poison("opId missing or invalid");
        JsonNode stockNode = n.get("stock");
        if (stockNode == null
                || !stockNode.canConvertToLong()
                || !stockNode.isIntegralNumber()
                || stockNode.asLong() < 0) {
            return new ParsedCommand.Poison("stock missing or negative");
        }
        Instant start = JsonFields.instant(n, "startAt");
        Instant end = JsonFields.instant(n, "endAt");
        if (start == null) return new ParsedCommand.Poison("startAt missing or not an ISO-8601 instant");
        if (end == null) return new ParsedCommand.Poison("endAt missing or not an ISO-8601 instant");
        if (!end.isAfter(start)) return new ParsedCommand.Poison("endAt must be after startAt");
        long limit = n.has("perUserLimit") ? JsonFields.positiveLong(n, "perUserLimit") : 1;
        if (!CommandRules.validQuantity(limit))
            return new ParsedCommand.Poison("perUserLimit not in 1.." + CommandRules.MAX_QUANTITY);
        boolean force = n.path("force").asBoolean(false);
        Fairness fairness =
                n.has("fairness") ? Fairness.ofWire(n.path("fairness").asText(null)) : Fairness.FCFS;
        if (fairness == null) return new ParsedCommand.Poison("fairness is not fcfs, lottery or registration");
        long window = 0;
        if (fairness.drawn()) {
            window = n.has("windowMs") ? JsonFields.positiveLong(n, "windowMs") : -1;
            if (window < 1 || window > OpenSale.MAX_WINDOW_MS)
                return new ParsedCommand.Poison(
                        "windowMs of a " + fairness.wire() + " not in 1.." + OpenSale.MAX_WINDOW_MS);
            if (fairness == Fairness.LOTTERY && !start.plusMillis(window).isBefore(end))
                return new ParsedCommand.Poison("the lottery's window must close before endAt");
        } else if (n.has("windowMs")
                && !(n.get("windowMs").canConvertToLong() && n.get("windowMs").asLong() == 0)) {
            return new ParsedCommand.Poison("windowMs is only for a lottery or a registration");
        }
        long buckets = n.has("buckets") ? JsonFields.positiveLong(n, "buckets") : 1;
        if (buckets < 1 || buckets > OpenSale.MAX_BUCKETS)
            return new ParsedCommand.Poison("buckets not in 1.." + OpenSale.MAX_BUCKETS);
        return new ParsedCommand.Valid(new OpenSale(
                goodsId, stockNode.asLong(), start, end, (int) limit, opId, force, fairness, window, (int) buckets));
    }

    private static ParsedCommand release(JsonNode n, long goodsId) {
        String opId = JsonFields.text(n, "opId");
        Long orderId = n.hasNonNull("orderId") && n.get("orderId").canConvertToLong()
                ? n.get("orderId").asLong()
                : null;
        if (opId == null && orderId != null) opId = "release-order-" + orderId;
        if (!CommandRules.validOpId(opId)) return new ParsedCommand.Poison("opId missing or invalid");
        long userId = JsonFields.positiveLong(n, "userId");
        if (userId <= 0) return new ParsedCommand.Poison("userId missing or not a positive integer");
        long quantity = n.has("quantity") ? JsonFields.positiveLong(n, "quantity") : 0;
        String requestId = JsonFields.text(n, "requestId");
        if (requestId != null && !CommandRules.validRequestId(requestId))
            return new ParsedCommand.Poison("requestId invalid");
        String reason = JsonFields.text(n, "reason");
        if (reason == null || !Release.REASONS.contains(reason)) {
            return new ParsedCommand.Poison("reason missing or not one of " + Release.REASONS);
        }
        return new ParsedCommand.Valid(
                new Release(goodsId, userId, (int) Math.max(quantity, 0), orderId, requestId, reason, opId));
    }

    private static ParsedCommand pay(JsonNode n, long goodsId) {
        String opId = JsonFields.text(n, "opId");
        if (!CommandRules.validOpId(opId)) return new ParsedCommand.Poison("opId missing or invalid");
        long userId = JsonFields.positiveLong(n, "userId");
        if (userId <= 0) return new ParsedCommand.Poison("userId missing or not a positive integer");
        long orderId = JsonFields.positiveLong(n, "orderId");
        if (orderId <= 0) return new ParsedCommand.Poison("orderId missing or not a positive integer");
        String requestId = JsonFields.text(n, "requestId");
        if (!CommandRules.validRequestId(requestId)) return new ParsedCommand.Poison("requestId missing or invalid");
        String paymentId = JsonFields.text(n, "paymentId");
        if (!CommandRules.validRequestId(paymentId)) return new ParsedCommand.Poison("paymentId missing or invalid");
        return new ParsedCommand.Valid(new Pay(goodsId, userId, requestId, orderId, paymentId, opId));
    }

    private static ParsedCommand withOpId(JsonNode n, Function<String, Command> make) {
        String opId = JsonFields.text(n, "opId");
        if (!CommandRules.validOpId(opId)) return new ParsedCommand.Poison("opId missing or invalid");
        return new ParsedCommand.Valid(make.apply(opId));
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }
}
