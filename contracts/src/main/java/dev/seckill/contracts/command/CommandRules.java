package dev.seckill.contracts.command;

import java.util.regex.Pattern;

/** Field rules shared by everyone who accepts commands (gateway, stream, tools). */
public final class CommandRules {
    public static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    public static final Pattern OP_ID = REQUEST_ID;
    /** Upper bound of a single purchase's quantity, whatever the sale's per-user limit. */
    public static final int MAX_QUANTITY = 100;

    private CommandRules() {}

    public static boolean validRequestId(String id) {
        return id != null && REQUEST_ID.matcher(id).matches();
    }

    /**
     * An operation's opId: a valid id not beginning {@link #STREAM_OP_PREFIX}, the prefix of the opIds stock-stream
     * gives its own borrows between a goods' buckets (and their transfers' ledger entries), so that no client operation
     * is ever taken for one, in the stream's decisions or in the ledger.
     */
    public static boolean validOpId(String id) {
        return validRequestId(id) && !id.startsWith(STREAM_OP_PREFIX);
    }

    /** The prefix of stock-stream's own opIds (docs/contracts.md, "Ids"). */
    public static final String STREAM_OP_PREFIX = "borrow:";

    public static boolean validQuantity(long q) {
        return q >= 1 && q <= MAX_QUANTITY;
    }
}
