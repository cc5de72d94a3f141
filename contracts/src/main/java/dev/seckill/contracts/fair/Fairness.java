package dev.seckill.contracts.fair;

import java.util.Locale;

/**
 * How a sale orders the purchases of its opening: {@link #FCFS} in the order they reach the goods' partition (the
 * default, what every sale did before), {@link #LOTTERY} by a seeded {@link Draw} among the buyers whose purchases were
 * accepted in the opening window, then first come first served.
 */
public enum Fairness {
    FCFS,
    LOTTERY;

    /** The name in commands and ledger entries: {@code fcfs}, {@code lottery}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode of a wire name, or null when it is none. */
    public static Fairness ofWire(String name) {
        for (Fairness f : values()) if (f.wire().equals(name)) return f;
        return null;
    }
}
