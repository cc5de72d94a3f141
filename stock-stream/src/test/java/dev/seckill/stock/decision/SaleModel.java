package dev.seckill.stock.decision;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The rules of one sale written plainly, with nothing of Redis, Kafka or batching (docs/invariants.md, "The decision"):
 * what {@link SaleModelTest} compares the real decisions with. An answer is a short string: {@code SUCCESS},
 * {@code REJECTED/ended}, {@code RELEASED}, {@code NOOP}, {@code PAID}, {@code PAYMENT_REFUSED}, {@code CLOSED},
 * {@code DLQ}, or {@code -} (nothing emitted: a retry of a decided id).
 */
final class SaleModel {
    record Holding(String requestId, int quantity, boolean paid) {}

    final long start;
    final long end;
    final int limit;
    long stock;
    boolean closed;
    final Map<Long, Holding> holders = new HashMap<>();
    private final Map<String, String> purchases = new HashMap<>(); // requestId -> payload
    private final Set<String> operations = new HashSet<>();

    SaleModel(long stock, long start, long end, int limit) {
        this.stock = stock;
        this.start = start;
        this.end = end;
        this.limit = limit;
    }

    SaleModel copy() {
        SaleModel m = new SaleModel(stock, start, end, limit);
        m.closed = closed;
        m.holders.putAll(holders);
        m.purchases.putAll(purchases);
        m.operations.addAll(operations);
        return m;
    }

    String purchase(String requestId, long user, int quantity, long acceptedAt) {
        String payload = user + ":" + quantity;
        String was = purchases.get(requestId);
        if (was != null) return was.equals(payload) ? "-" : "REJECTED/invalid";
        purchases.put(requestId, payload);
        if (acceptedAt < start) return "REJECTED/not_started";
        if (acceptedAt >= end || closed) return "REJECTED/ended";
        if (quantity > limit) return "REJECTED/over_limit";
        if (holders.containsKey(user)) return "DUPLICATE";
        if (stock < quantity) return "SOLD_OUT";
        stock -= quantity;
        holders.put(user, new Holding(requestId, quantity, false));
        return "SUCCESS";
    }

    String release(long user, String requestId, String opId) {
        if (!operations.add(opId)) return "-";
        Holding h = holders.get(user);
        if (h == null || (requestId != null && !requestId.equals(h.requestId()))) return "-";
        if (h.paid()) return "DLQ";
        holders.remove(user);
        stock += h.quantity();
        return "RELEASED";
    }

    String pay(long user, String requestId, String opId) {
        if (!operations.add(opId)) return "-";
        Holding h = holders.get(user);
        if (h == null || !h.requestId().equals(requestId)) return "PAYMENT_REFUSED";
        holders.put(user, new Holding(h.requestId(), h.quantity(), true));
        return "PAID";
    }

    String close(String opId) {
        if (!operations.add(opId)) return "-";
        closed = true;
        return "CLOSED";
    }
}
