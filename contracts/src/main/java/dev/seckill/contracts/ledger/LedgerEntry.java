package dev.seckill.contracts.ledger;

import dev.seckill.contracts.fair.DrawFacts;
import java.time.Instant;

/**
 * One change of stock, as decided by stock-stream. {@code quantity} is the signed-free size of the change:
 * OPENED = units opened, DEDUCTED/RELEASED = units taken/given back, TRANSFERRED_OUT/IN = units moved between
 * buckets, CLOSED/RESTORED/PAID/PAYMENT_REFUSED/DRAWN = 0.
 * {@code opId} is unique per change: the command's opId, or {@code deduct:<goodsId>:<requestId>} for a purchase (a
 * purchase is the pair goodsId, requestId: docs/contracts.md, "Ids"). {@code draw}: on a lottery sale's OPENED and
 * DRAWN entries, the draw's facts ({@link DrawFacts}); absent otherwise. {@code commandOffset}: on OPENED the open's
 * command, on DEDUCTED the purchase's. {@code acceptedAt}, {@code openOffset}: on DEDUCTED, when the purchase was
 * accepted and the offset of its sale's open; absent otherwise. {@code bucket}: on every entry of a goods split into
 * buckets (v2), where the change happened ({@link BucketOf}); absent on a one-bucket sale's (v1).
 */
public record LedgerEntry(
        int v,
        String opId,
        long goodsId,
        LedgerType type,
        long quantity,
        Long userId,
        String requestId,
        Long orderId,
        long stockAfter,
        Instant at,
        Instant keysExpireAt,
        Long commandOffset,
        DrawFacts draw,
        Instant acceptedAt,
        Long openOffset,
        BucketOf bucket) {
    /** The version of entries of one-bucket sales. */
    public static final int V1 = 1;
    /** The version of entries of bucketed sales (a {@link #bucket}, and the TRANSFERRED_* types). */
    public static final int V2 = 2;

    public static LedgerEntry of(
            String opId,
            long goodsId,
            LedgerType type,
            long quantity,
            Long userId,
            String requestId,
            Long orderId,
            long stockAfter,
            Instant at) {
        return new LedgerEntry(
                1,
                opId,
                goodsId,
                type,
                quantity,
                userId,
                requestId,
                orderId,
                stockAfter,
                at,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /**
     * This entry with {@code keysExpireAt}: on OPENED and RESTORED, when the sale's Redis keys expire
     * ({@code KeyLifetime}). Past it the goods has no keys and that is its end, not drift: the reconciler judges an
     * ended sale by it. Absent (null) on other entries.
     */
    public LedgerEntry withKeysExpireAt(Instant expireAt) {
        return new LedgerEntry(
                v,
                opId,
                goodsId,
                type,
                quantity,
                userId,
                requestId,
                orderId,
                stockAfter,
                at,
                expireAt,
                commandOffset,
                draw,
                acceptedAt,
                openOffset,
                bucket);
    }

    /**
     * This entry with the offset of the command that made it, in the goods' partition (the same partition number in
     * every topic). On OPENED: orders whose purchase command came before it belong to earlier sales of the goods.
     */
    public LedgerEntry withCommandOffset(long offset) {
        return new LedgerEntry(
                v,
                opId,
                goodsId,
                type,
                quantity,
                userId,
                requestId,
                orderId,
                stockAfter,
                at,
                keysExpireAt,
                offset,
                draw,
                acceptedAt,
                openOffset,
                bucket);
    }

    /** This entry with the draw's facts (a lottery sale's OPENED and DRAWN). */
    public LedgerEntry withDraw(DrawFacts facts) {
        return new LedgerEntry(
                v,
                opId,
                goodsId,
                type,
                quantity,
                userId,
                requestId,
                orderId,
                stockAfter,
                at,
                keysExpireAt,
                commandOffset,
                facts,
                acceptedAt,
                openOffset,
                bucket);
    }

    /**
     * This DEDUCTED entry with its purchase's facts the order needs: the offset of the purchase command in the goods'
     * partition ({@code commandOffset}), when the gateway accepted it ({@code acceptedAt}) and the offset of the open of
     * the sale it was decided in ({@code openOffset}; a negative one is unknown and left out). The order-writer writes
     * the order from this entry, so a goods' orders, releases and payments reach the database in the stream's order, and
     * a requestId reused in a later sale (after the stream forgot it) is told from a redelivery by its sale.
     */
    public LedgerEntry withPurchase(long purchaseOffset, Instant purchaseAcceptedAt, long saleOpenOffset) {
        return new LedgerEntry(
                v,
                opId,
                goodsId,
                type,
                quantity,
                userId,
                requestId,
                orderId,
                stockAfter,
                at,
                keysExpireAt,
                purchaseOffset,
                draw,
                purchaseAcceptedAt,
                saleOpenOffset < 0 ? null : saleOpenOffset,
                bucket);
    }

    /** This entry under another opId (the order-writer's claim of a requestId reused in a later sale). */
    public LedgerEntry withOpId(String otherOpId) {
        return new LedgerEntry(
                v,
                otherOpId,
                goodsId,
                type,
                quantity,
                userId,
                requestId,
                orderId,
                stockAfter,
                at,
                keysExpireAt,
                commandOffset,
                draw,
                acceptedAt,
                openOffset,
                bucket);
    }

    /**
     * This entry as a change in bucket {@code where} of a bucketed goods: a v2 entry (readers of v1 cannot fold a goods
     * whose units move between buckets).
     */
    public LedgerEntry inBucket(BucketOf where) {
        return new LedgerEntry(
                V2,
                opId,
                goodsId,
                type,
                quantity,
                userId,
                requestId,
                orderId,
                stockAfter,
                at,
                keysExpireAt,
                commandOffset,
                draw,
                acceptedAt,
                openOffset,
                where);
    }

    /** The bucket this entry's change happened in: 0 for an entry of a one-bucket sale. */
    public int bucketIndex() {
        return bucket == null ? 0 : bucket.index();
    }

    /**
     * The commands partition this entry's offsets are of: its bucket's, or — an entry of a one-bucket sale — its own
     * record's ({@code recordPartition}: the ledger is partitioned as the commands are).
     */
    public int commandPartition(int recordPartition) {
        return bucket == null ? recordPartition : bucket.partition();
    }

    /** How many buckets this entry's goods is split into: 1 for an entry of a one-bucket sale. */
    public int bucketCount() {
        return bucket == null ? 1 : bucket.count();
    }

    /** The opId of a DRAWN entry: the goods and the offset of the open_sale whose draw it is (one draw per open). */
    public static String drawnOpId(long goodsId, long openOffset) {
        return "drawn:" + goodsId + ":" + openOffset;
    }

    /** The opId of a purchase's DEDUCTED entry: scoped by the goods, as every store scopes a purchase's requestId. */
    public static String deductOpId(long goodsId, String requestId) {
        return "deduct:" + goodsId + ":" + requestId;
    }

    /**
     * The change this entry makes to the units left in its bucket: +opened, -deducted, +released, -transferred out,
     * +transferred in, 0 otherwise. Summed over a goods' entries, a transfer nets to 0 once both sides are applied; while
     * only its TRANSFERRED_OUT is, its units are in transit, counted in neither bucket.
     */
    public long stockDelta() {
        return switch (type) {
            case OPENED, RELEASED, TRANSFERRED_IN -> quantity;
            case DEDUCTED, TRANSFERRED_OUT -> -quantity;
            case CLOSED, RESTORED, PAID, PAYMENT_REFUSED, DRAWN -> 0;
        };
    }
}
