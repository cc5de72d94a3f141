package dev.seckill.contracts.redis;

import java.util.List;

/**
 * The Redis key scheme. Every key of one goods carries the hash tag {@code {goodsId}} so that all keys a
 * Lua script touches live in one slot and the scripts run unchanged on Redis Cluster.
 */
public record RedisKeys(String prefix) {
    public static final String DEFAULT_PREFIX = "seckill:";

    /**
     * Hash: startAt/endAt (epoch ms), perUserLimit, opened, status, expireAt, and {@code at}: the offset of the last
     * command applied to the goods' keys, which every stock script checks against the position stock-stream's fold
     * expects before it decides (docs/invariants.md, "The fold is the truth").
     */
    public String sale(long goodsId) {
        return key("sale", goodsId);
    }
    /** String: units left. */
    public String stock(long goodsId) {
        return key("stock", goodsId);
    }
    /** Hash: userId -> quantity held by a live purchase. */
    public String buyers(long goodsId) {
        return key("buyers", goodsId);
    }
    /** Hash: userId -> requestId of the live purchase. */
    public String holders(long goodsId) {
        return key("holders", goodsId);
    }
    /**
     * Hash: paid marks, requestId -> the opId of the {@code pay} that marked the purchase (no release gives it back).
     * Decisions are not kept in Redis: stock-stream keeps them in its own state, with the ledger fold.
     */
    public String paidMarks(long goodsId) {
        return key("paid", goodsId);
    }

    /**
     * String: what the gateway knows of one purchase, by its requestId (the accepted purchase while it is pending,
     * then its outcome), for {@code GET /api/purchases/{requestId}} through any gateway instance. Its own namespace:
     * it holds client requestIds only, never an internal id.
     */
    public String purchaseStatus(String requestId) {
        return prefix + "purchase:" + requestId;
    }

    /**
     * Hash: the gateway's status index's progress, {@code <topic>-<partition>} -> the next outcome offset it will
     * index. Written after the outcomes it covers, so a Redis that lost writes (restarted empty or from an older
     * snapshot) shows an older offset or none, and the index rebuilds from there.
     */
    public String statusIndex() {
        return prefix + "status:index";
    }

    /**
     * Hash: {@code <topic>-<partition>} -> 1 for each outcome partition whose purchases the status store holds up to
     * the normal lag; the store answers "no such purchase" only while every partition is there.
     */
    public String statusReady() {
        return prefix + "status:ready";
    }

    /**
     * String, expiring: set when a gateway's status index found Redis had lost writes, and kept the pending bound past
     * the rebuild's end: claims are not rebuilt (no topic holds them), so until then an id the store does not hold may
     * be a purchase accepted before the loss and not decided yet.
     */
    public String statusLost() {
        return prefix + "status:lost";
    }

    /** Hash: requestId -> status, the purchases one buyer made of one goods ({@code GET /api/purchases?goodsId=}). */
    public String buyerPurchases(long goodsId, long userId) {
        return prefix + "mine:{" + goodsId + "}:" + userId;
    }

    /** The keys every stock script receives, in the order the scripts expect them. */
    public List<String> goodsKeys(long goodsId) {
        return goodsKeys(goodsId, 0);
    }

    /**
     * The keys of bucket {@code bucket} of a goods whose stock is split into buckets (docs/decisions.md, "Stock
     * buckets"), in the order the scripts expect them. Bucket 0 has the goods' own keys ({@code {goodsId}}), so a
     * one-bucket sale's keys are today's; bucket b has the hash tag {@code {goodsId.b}}: its own Cluster slot.
     */
    public List<String> goodsKeys(long goodsId, int bucket) {
        return List.of(
                key("sale", goodsId, bucket),
                stock(goodsId, bucket),
                buyers(goodsId, bucket),
                key("holders", goodsId, bucket),
                key("paid", goodsId, bucket));
    }

    /** String: the units left in one bucket of a goods ({@link #stock(long)} for bucket 0). */
    public String stock(long goodsId, int bucket) {
        return key("stock", goodsId, bucket);
    }

    /** Hash: userId -> quantity held by a live purchase in one bucket of a goods. */
    public String buyers(long goodsId, int bucket) {
        return key("buyers", goodsId, bucket);
    }

    private String key(String kind, long goodsId) {
        return key(kind, goodsId, 0);
    }

    private String key(String kind, long goodsId, int bucket) {
        if (bucket < 0) throw new IllegalArgumentException("bucket must be at least 0, got " + bucket);
        return prefix + kind + ":{" + goodsId + (bucket == 0 ? "" : "." + bucket) + "}";
    }
}
