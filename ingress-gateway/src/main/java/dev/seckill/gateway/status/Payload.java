package dev.seckill.gateway.status;

import dev.seckill.contracts.outcome.Outcome;

/**
 * What a client's requestId stands for at the gateway: the purchase it was first accepted for. The same
 * requestId with the same payload is a retry; with another one it is refused, and an outcome of another payload is
 * not this purchase's, whatever its requestId.
 */
public record Payload(long goodsId, long userId, int quantity) {
    public static Payload of(Outcome o) {
        return new Payload(o.goodsId(), o.userId(), o.quantity());
    }

    /**
     * The field in which {@code other} differs from this, or null when it is the same purchase: {@code userId} first
     * (another buyer's id says nothing more of their purchase), then {@code goodsId}, then {@code quantity}.
     */
    public String differingField(Payload other) {
        if (userId != other.userId) return "userId";
        if (goodsId != other.goodsId) return "goodsId";
        if (quantity != other.quantity) return "quantity";
        return null;
    }

    /** True when the outcome is this purchase's (the same goods, buyer and quantity). */
    public boolean sameAs(Outcome o) {
        return o.goodsId() == goodsId && o.userId() == userId && o.quantity() == quantity;
    }
}
