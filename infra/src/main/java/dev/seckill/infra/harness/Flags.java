package dev.seckill.infra.harness;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** {@code --name value} and {@code --switch} flags, each checked against the ones a command knows. */
public final class Flags {
    private final Map<String, String> values = new HashMap<>();
    private final Map<String, String> defaults;
    private final Set<String> required;

    /** Flags without declared defaults (tests that parse a command line by hand). */
    public Flags(String[] args, int from, Set<String> known, Set<String> switches) {
        this(args, from, known, switches, Map.of(), Set.of());
    }

    /**
     * Only made by the CLI's {@code CliCommand.parse}, so that every flag a command accepts is in its usage, and each
     * default is the one its declaration shows ({@code defaults}: flag name → its default's text; {@code required}: the
     * flags a command cannot run without, read without a default).
     */
    public Flags(
            String[] args,
            int from,
            Set<String> known,
            Set<String> switches,
            Map<String, String> defaults,
            Set<String> required) {
        this.defaults = Map.copyOf(defaults);
        this.required = Set.copyOf(required);
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

    /** The flag's value, or {@code fallback} — for a flag whose declaration shows no default (a computed one). */
    public String get(String name, String fallback) {
        undeclared(name);
        return values.getOrDefault(name, fallback);
    }

    /** The flag's value, or the default its declaration shows. */
    public String get(String name) {
        String v = values.get(name);
        return v != null ? v : declared(name);
    }

    /** {@link #getLong(String, long)} with the declared default. */
    public long getLong(String name) {
        return number(name, null, 1, "a positive number");
    }

    /** {@link #getCount(String, long)} with the declared default. */
    public long getCount(String name) {
        return number(name, null, 0, "zero or a positive number");
    }

    /** {@link #getDouble(String, double)} with the declared default. */
    public double getDouble(String name) {
        String v = values.get(name);
        return parseDouble(name, v != null ? v : declared(name));
    }

    /** The default the flag's declaration shows; a programming error when it shows none. */
    private String declared(String name) {
        if (required.contains(name)) throw new UsageError("--" + name + " is required");
        String d = defaults.get(name);
        if (d == null) throw new IllegalStateException("--" + name + " declares no default: pass one where it is read");
        return d;
    }

    /** A programming error: a default passed where the declaration shows one (two defaults that could differ). */
    private void undeclared(String name) {
        if (defaults.containsKey(name))
            throw new IllegalStateException(
                    "--" + name + " declares its default (" + defaults.get(name) + "): read it without a fallback");
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** Every flag as the command reads it: those given, and the declared defaults of the rest (sorted by name). */
    public Map<String, String> effective() {
        Map<String, String> all = new java.util.TreeMap<>(defaults);
        all.putAll(values);
        return all;
    }

    public long getLong(String name, long fallback) {
        return number(name, fallback, 1, "a positive number");
    }

    /** A count where 0 means "none" (e.g. {@code --warmup 0}). */
    public long getCount(String name, long fallback) {
        return number(name, fallback, 0, "zero or a positive number");
    }

    /** {@code fallback} null: the declared default. */
    private long number(String name, Long fallback, long min, String what) {
        if (fallback != null) undeclared(name);
        String v = values.get(name);
        if (v == null && fallback != null) return fallback;
        if (v == null) v = declared(name);
        try {
            long l = Long.parseLong(v.replace("_", "").replace(",", ""));
            if (l < min) throw new UsageError("--" + name + " must be " + what + ", got " + v);
            return l;
        } catch (NumberFormatException e) {
            throw new UsageError("--" + name + " must be a number, got '" + v + "'");
        }
    }

    /** A number as a value: {@code 5}, {@code -1}, {@code 0.25}, {@code 1,000} or {@code 1_000}. */
    private static final Pattern NUMBER = Pattern.compile("-?(\\d[\\d_,]*(\\.\\d+)?|\\.\\d+)");

    private static final Pattern NUMBER_IN_LIST = Pattern.compile("-?\\d[\\d_]*(\\.\\d+)?");

    /**
     * A usage error naming the flag unless its value, when given, is a number ({@code list}: numbers separated by
     * commas); the commands' declarations call this for every numeric flag, so that each is refused the same way.
     */
    public void requireNumber(String name, boolean list) {
        String v = values.get(name);
        if (v == null) return;
        boolean ok = list
                ? Arrays.stream(v.split(",", -1))
                        .allMatch(p -> NUMBER_IN_LIST.matcher(p.strip()).matches())
                : NUMBER.matcher(v.strip()).matches();
        if (!ok)
            throw new UsageError("--" + name + " must be " + (list ? "numbers separated by commas" : "a number")
                    + ", got '" + v + "'");
    }

    /** A fraction or any real number, e.g. {@code --repeat-ratio 0.3}. */
    public double getDouble(String name, double fallback) {
        undeclared(name);
        String v = values.get(name);
        if (v == null) return fallback;
        return parseDouble(name, v);
    }

    private static double parseDouble(String name, String v) {
        try {
            return Double.parseDouble(v.replace("_", "").replace(",", ""));
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
