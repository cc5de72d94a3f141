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

    public static boolean validQuantity(long q) {
        return q >= 1 && q <= MAX_QUANTITY;
    }
}
