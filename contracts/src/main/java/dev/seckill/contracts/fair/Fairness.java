package dev.seckill.contracts.fair;

import java.util.Locale;

/**
 * How a sale orders the purchases of its opening: {@link #FCFS} in the order they reach the goods' partition (the
 * default, what every sale did before), {@link #LOTTERY} by a seeded {@link Draw} among the buyers whose purchases were
 * accepted in the opening window, then first come first served; {@link #REGISTRATION} the same among those who
 * registered in a window before the start.
 */
public enum Fairness {
    FCFS,
    LOTTERY,
    /**
     * A drop with registration: the purchases accepted in the {@code windowMs} before {@code startAt} are registrations,
     * drawn at the start (one ticket per buyer); then first come first served for what is left or released.
     */
    REGISTRATION;

    /** Whether the opening is decided by a draw. */
    public boolean drawn() {
        return this != FCFS;
    }

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
