package dev.seckill.contracts.ledger;

import dev.seckill.contracts.fair.DrawFacts;
import java.time.Instant;

/**
 * One change of stock, as decided by stock-stream. {@code quantity} is the signed-free size of the change:
 * OPENED = units opened, DEDUCTED/RELEASED = units taken/given back, CLOSED/RESTORED/PAID/PAYMENT_REFUSED = 0.
 * {@code opId} is unique per change: the command's opId, or {@code deduct:<goodsId>:<requestId>} for a purchase (a
 * purchase is the pair goodsId, requestId: docs/contracts.md, "Ids"). {@code draw}: on a lottery sale's OPENED and
 * DRAWN entries, the draw's facts ({@link DrawFacts}); absent otherwise. {@code commandOffset}: on OPENED the open's
 * command, on DEDUCTED the purchase's. {@code acceptedAt}, {@code openOffset}: on DEDUCTED, when the purchase was
 * accepted and the offset of its sale's open; absent otherwise.
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
        Long openOffset) {

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
                openOffset);
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
                openOffset);
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
                openOffset);
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
                saleOpenOffset < 0 ? null : saleOpenOffset);
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
                openOffset);
    }

    /** The opId of a DRAWN entry: the goods and the offset of the open_sale whose draw it is (one draw per open). */
    public static String drawnOpId(long goodsId, long openOffset) {
        return "drawn:" + goodsId + ":" + openOffset;
    }

    /** The opId of a purchase's DEDUCTED entry: scoped by the goods, as every store scopes a purchase's requestId. */
    public static String deductOpId(long goodsId, String requestId) {
        return "deduct:" + goodsId + ":" + requestId;
    }

    /** The change this entry makes to the units left: +opened, -deducted, +released, 0 otherwise. */
    public long stockDelta() {
        return switch (type) {
            case OPENED, RELEASED -> quantity;
            case DEDUCTED -> -quantity;
            case CLOSED, RESTORED, PAID, PAYMENT_REFUSED, DRAWN -> 0;
        };
    }
}
