package dev.seckill.infra.harness;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** {@code --name value} and {@code --switch} flags, each checked against the ones a command knows. */
public final class Flags {
    private final Map<String, String> values = new HashMap<>();

    /** Only made by the CLI's {@code CliCommand.parse}, so that every flag a command accepts is in its usage. */
    public Flags(String[] args, int from, Set<String> known, Set<String> switches) {
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) throw new UsageError("unexpected argument '" + a + "'");
            String name = a.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (switches.contains(name)) {
                values.put(name, value == null ? "true" : value);
                continue;
            }
            if (!known.contains(name)) throw new UsageError("unknown flag --" + name);
            if (value == null) {
                if (i + 1 >= args.length) throw new UsageError("--" + name + " needs a value");
                value = args[++i];
            }
            values.put(name, value);
        }
    }

    public String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public long getLong(String name, long fallback) {
        return number(name, fallback, 1, "a positive number");
    }

    /** A count where 0 means "none" (e.g. {@code --warmup 0}). */
    public long getCount(String name, long fallback) {
        return number(name, fallback, 0, "zero or a positive number");
    }

    private long number(String name, long fallback, long min, String what) {
        String v = values.get(name);
        if (v == null) return fallback;
        try {
            long l = Long.parseLong(v.replace("_", "").replace(",", ""));
            if (l < min) throw new UsageError("--" + name + " must be " + what + ", got " + v);
            return l;
        } catch (NumberFormatException e) {
            throw new UsageError("--" + name + " must be a number, got '" + v + "'");
        }
    }

    /** A mistake in the command line: printed as one line with the usage hint. */
    public static final class UsageError extends RuntimeException {
        public UsageError(String message) {
            super(message);
        }
    }
}
