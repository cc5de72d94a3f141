package dev.seckill.kit.config;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What makes a secret not a secret: a placeholder copied from an example file ({@code change-me...}), or a value a
 * guesser tries early — too short, too few distinct characters, a repetition ({@code abcdabcd...}), a run
 * ({@code 0123456...}, {@code abcdefg...}), too little spread. A service refuses to start on either, with one line
 * naming the setting: a copy-paste deployment that let anyone mint buyer tokens served for minutes without a word.
 * The checks are heuristics, each a rule a random value passes: {@code openssl rand -base64 48} and
 * {@code openssl rand -hex 16} are accepted for 128 bits.
 */
public final class SecretValues {
    /** Words of the placeholders that example files and tutorials ship (compared without case, '-' or '_'). */
    static final List<String> PLACEHOLDERS = List.of(
            "changeme", "replaceme", "placeholder", "example", "yoursecret", "secrethere", "notasecret", "xxxxxx");
    /** An ascending or descending run this long ("01234567") is a pattern, not chance (16^-7 per position in hex). */
    static final int RUN = 8;

    private SecretValues() {}

    /** Null when {@code value} may serve as a secret of {@code minBits} bits (0: placeholders only); else why not. */
    public static String weakness(String value, int minBits) {
        String folded = value.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
        for (String p : PLACEHOLDERS) if (folded.contains(p)) return "is a placeholder (it contains \"" + p + "\")";
        if (minBits <= 0) return null;
        int minLength = minBits / 4; // a hex character carries 4 bits
        if (value.length() < minLength)
            return "is too short (" + value.length() + " characters, " + minLength + " needed)";
        long distinct = value.chars().distinct().count();
        if (distinct < 8) return "is too guessable (" + distinct + " distinct characters)";
        int period = period(value);
        if (period < value.length()) return "is too guessable (it repeats every " + period + " characters)";
        if (hasRun(value)) return "is too guessable (it holds a run like \"abcdefgh\" or \"01234567\")";
        double bits = estimatedBits(value);
        // a random 32-digit hex value (128 bits) scores 93 at worst in 200,000 draws: 11/16 of the bits asked
        int needed = minBits * 11 / 16;
        if (bits < needed)
            return String.format(Locale.ROOT, "is too guessable (about %.0f bits of spread, %d needed)", bits, needed);
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

    /** The length × the Shannon entropy of the value's characters: about right for a random value, an upper bound else. */
    static double estimatedBits(String value) {
        if (value.isEmpty()) return 0;
        Map<Integer, Integer> counts = new HashMap<>();
        value.chars().forEach(c -> counts.merge(c, 1, Integer::sum));
        double perChar = 0;
        for (int count : counts.values()) {
            double p = (double) count / value.length();
            perChar -= p * Math.log(p) / Math.log(2);
        }
        return perChar * value.length();
    }

    /** The shortest p with value[i] == value[i - p] for every i (the whole length when it does not repeat). */
    static int period(String value) {
        for (int p = 1; p <= value.length() / 2; p++) {
            boolean repeats = true;
            for (int i = p; i < value.length() && repeats; i++) repeats = value.charAt(i) == value.charAt(i - p);
            if (repeats) return p;
        }
        return value.length();
    }

    static boolean hasRun(String value) {
        int up = 1;
        int down = 1;
        for (int i = 1; i < value.length(); i++) {
            int step = value.charAt(i) - value.charAt(i - 1);
            up = step == 1 ? up + 1 : 1;
            down = step == -1 ? down + 1 : 1;
            if (up >= RUN || down >= RUN) return true;
        }
        return false;
    }
}
