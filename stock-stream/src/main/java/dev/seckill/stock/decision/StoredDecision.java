package dev.seckill.stock.decision;

/**
 * A decision as the scripts store it in the decisions hash, and as the sold-out gate stores its in-memory answers in
 * the short-circuit log: {@code RESULT|detail|stockAfter|position}, where position is the command's
 * {@code partition:offset} (or {@code restored} for a buyer's SUCCESS that {@code restore.lua} wrote back). The one
 * place in Java that writes or reads that format; the scripts' header comments document the same.
 */
public record StoredDecision(String result, String detail, long stockAfter, String position) {
    private static final String SEPARATOR = "|";

    /** The stored form of a script's (or the gate's) answer to the command at {@code position}. */
    public static StoredDecision of(LuaResult answer, String position) {
        return new StoredDecision(answer.code(), answer.detail(), answer.stockAfter(), position);
    }

    public String encode() {
        return result + SEPARATOR + detail + SEPARATOR + stockAfter + SEPARATOR + position;
    }

    /** Parses the stored form; an entry of another shape is a bug, not input, and fails loudly. */
    public static StoredDecision parse(String stored) {
        String[] fields = stored.split("\\|", -1);
        if (fields.length != 4) throw new IllegalStateException("not a stored decision: " + stored);
        return new StoredDecision(fields[0], fields[1], Long.parseLong(fields[2]), fields[3]);
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
