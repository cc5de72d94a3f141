package dev.seckill.stock.decision;

/**
 * A decision as stock-stream keeps it in its decisions store, per goods and id: {@code
 * RESULT|detail|stockAfter|position|payload|decidedAt}, where position is the command's {@code partition:offset}
 * ({@code restored} for a live buyer's SUCCESS written back from an older fold), payload what the id was decided for
 * ({@code userId:quantity} for a purchase, empty for an operation: a reuse of the id for another purchase is refused)
 * and decidedAt the epoch ms it was decided (when it may be forgotten). The one place that writes or reads the format.
 */
public record StoredDecision(
        String result, String detail, long stockAfter, String position, String payload, long decidedAt) {
    private static final String SEPARATOR = "|";

    /** The stored form of an answer to the command at {@code position}, made for {@code payload} at {@code decidedAt}. */
    public static StoredDecision of(LuaResult answer, String position, String payload, long decidedAt) {
        return new StoredDecision(answer.code(), answer.detail(), answer.stockAfter(), position, payload, decidedAt);
    }

    /** What a purchase's requestId is decided for: the buyer and the quantity. */
    public static String purchasePayload(long userId, int quantity) {
        return userId + ":" + quantity;
    }

    public String encode() {
        return result
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
    }

    /** Parses the stored form; an entry of another shape is a bug, not input, and fails loudly. */
    public static StoredDecision parse(String stored) {
        String[] fields = stored.split("\\|", -1);
        if (fields.length != 6) throw new IllegalStateException("not a stored decision: " + stored);
        return new StoredDecision(
                fields[0], fields[1], Long.parseLong(fields[2]), fields[3], fields[4], Long.parseLong(fields[5]));
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
