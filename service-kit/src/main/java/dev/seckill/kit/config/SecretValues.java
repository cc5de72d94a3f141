package dev.seckill.kit.config;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What makes a secret not a secret: a placeholder copied from an example file ({@code change-me...}), or too little
 * randomness to resist guessing. A service refuses to start on either, with one line naming the setting: a copy-paste
 * deployment that let anyone mint buyer tokens served for minutes without a word (issue 29).
 */
public final class SecretValues {
    /** Words of the placeholders that example files and tutorials ship (compared without case, '-' or '_'). */
    static final List<String> PLACEHOLDERS = List.of(
            "changeme", "replaceme", "placeholder", "example", "yoursecret", "secrethere", "notasecret", "xxxxxx");

    private SecretValues() {}

    /**
     * Null when {@code value} may serve as a secret of at least {@code minBits} bits; else why not. The strength is
     * estimated from the value itself (its length × the Shannon entropy of its characters), an upper bound for a
     * human-made value and about right for a random one: {@code openssl rand -base64 48} gives ~280 bits.
     */
    public static String weakness(String value, int minBits) {
        String folded = value.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
        for (String p : PLACEHOLDERS) if (folded.contains(p)) return "is a placeholder (it contains \"" + p + "\")";
        double bits = estimatedBits(value);
        if (bits < minBits)
            return String.format(
                    Locale.ROOT, "is too guessable (about %.0f bits of randomness, %d needed)", bits, minBits);
        return null;
    }

    /** Throws, naming the variable, when {@code value} is not empty and {@link #weakness} finds one. */
    static String require(String env, String value, int minBits) {
        if (value.isEmpty()) return value;
        String why = weakness(value, minBits);
        if (why != null)
            throw new IllegalArgumentException(
                    env + " " + why + ": set a random value, e.g. the output of `openssl rand -base64 48`");
        return value;
    }

    static double estimatedBits(String value) {
        if (value.isEmpty()) return 0;
        Map<Integer, Integer> counts = new HashMap<>();
        value.codePoints().forEach(c -> counts.merge(c, 1, Integer::sum));
        int n = value.codePointCount(0, value.length());
        double perChar = 0;
        for (int count : counts.values()) {
            double p = (double) count / n;
            perChar -= p * Math.log(p) / Math.log(2);
        }
        return perChar * n;
    }
}
