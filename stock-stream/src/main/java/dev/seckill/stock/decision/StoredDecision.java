package dev.seckill.stock.decision;

/**
 * A decision as stock-stream keeps it in its decisions store, per goods and id: {@code
 * RESULT|detail|stockAfter|position|payload|decidedAt[|heldRequestId]}, where position is the command's {@code
 * partition:offset} ({@code restored} for a live buyer's SUCCESS written back from an older fold), payload what the id
 * was decided for ({@code userId:quantity} for a purchase, empty for an operation: a reuse of the id for another
 * purchase is refused), decidedAt the epoch ms it was decided (when it may be forgotten) and heldRequestId, only on a
 * DUPLICATE that named it, the purchase the buyer held (an entry without it, any other decision or a DUPLICATE stored
 * before it was kept, reads as null). The one place that writes or reads the format.
 */
public record StoredDecision(
        String result,
        String detail,
        long stockAfter,
        String position,
        String payload,
        long decidedAt,
        String heldRequestId) {
    private static final String SEPARATOR = "|";

    /** The stored form of an answer to the command at {@code position}, made for {@code payload} at {@code decidedAt}. */
    public static StoredDecision of(LuaResult answer, String position, String payload, long decidedAt) {
        return of(answer, position, payload, decidedAt, null);
    }

    /** The same, for a DUPLICATE naming the purchase the buyer holds ({@code heldRequestId}, null when unknown). */
    public static StoredDecision of(
            LuaResult answer, String position, String payload, long decidedAt, String heldRequestId) {
        return new StoredDecision(
                answer.code(), answer.detail(), answer.stockAfter(), position, payload, decidedAt, heldRequestId);
    }

    /** What a purchase's requestId is decided for: the buyer and the quantity. */
    public static String purchasePayload(long userId, int quantity) {
        return userId + ":" + quantity;
    }

    public String encode() {
        String stored = result
                + SEPARATOR
                + detail
                + SEPARATOR
                + stockAfter
                + SEPARATOR
                + position
                + SEPARATOR
                + payload
                + SEPARATOR
                + decidedAt;
        return heldRequestId == null ? stored : stored + SEPARATOR + heldRequestId;
    }

    /** Parses the stored form; an entry of another shape is a bug, not input, and fails loudly. */
    public static StoredDecision parse(String stored) {
        String[] fields = stored.split("\\|", -1);
        if (fields.length != 6 && fields.length != 7)
            throw new IllegalStateException("not a stored decision: " + stored);
        return new StoredDecision(
                fields[0],
                fields[1],
                Long.parseLong(fields[2]),
                fields[3],
                fields[4],
                Long.parseLong(fields[5]),
                fields.length == 7 ? fields[6] : null);
    }

    /** The offset of the command that was decided, when it was decided in {@code partition}; -1 otherwise. */
    public long offsetIn(int partition) {
        String prefix = partition + ":";
        return position.startsWith(prefix) ? Long.parseLong(position.substring(prefix.length())) : -1;
    }

    /** This decision answered again: for its own command ({@code REPLAY}) or for a later one with the same id. */
    public LuaResult answer(LuaResult.Status status) {
        return new LuaResult(result, detail, stockAfter, status);
    }
}
