package dev.seckill.stock.decision;

/**
 * Where a stock script call expects a goods' Redis keys to be, and where it leaves them: {@code expected} is the marker
 * the sale hash must carry ({@code at}: the offset of the last command applied; "" = the goods has no keys), {@code
 * next} this command's offset, written as the new marker by every call that finds a sale hash. A call whose keys carry
 * another marker decides nothing and answers STALE (docs/invariants.md, "The fold is the truth").
 */
public record KeysAt(String expected, String next) {
    /** A call of the command at {@code offset}, before the batch chains it ({@link KeyMarkers#next}) to its expected marker. */
    static KeysAt unchained(long offset) {
        return new KeysAt("", Long.toString(offset));
    }

    /** The marker a call leaves: its own offset when the keys exist after it (they did before, or it opens a sale). */
    String leaves(boolean opens) {
        return !expected.isEmpty() || opens ? next : "";
    }
}
