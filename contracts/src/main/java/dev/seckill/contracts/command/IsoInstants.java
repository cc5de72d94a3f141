package dev.seckill.contracts.command;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * Parses the ISO-8601 instants commands carry. The shape every producer of ours writes,
 * {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, is read by hand (the decision hot path parses one per purchase, and
 * {@link Instant#parse} was a tenth of its CPU); anything else goes to {@link Instant#parse}, so what is accepted and
 * rejected is exactly what it accepts and rejects.
 */
final class IsoInstants {
    private IsoInstants() {}

    /** The instant, or null when {@code s} is not an ISO-8601 instant. */
    static Instant parse(String s) {
        Instant fast = fastPath(s);
        if (fast != null) return fast;
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Instant fastPath(String s) {
        int n = s.length();
        if (n < 20 || n > 30 || s.charAt(n - 1) != 'Z' || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
                || s.charAt(13) != ':' || s.charAt(16) != ':') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        int nanos = 0;
        if (n > 20) {
            int fraction = n - 21; // between '.' and 'Z'
            if (s.charAt(19) != '.' || fraction < 1 || fraction > 9) return null;
            int f = digits(s, 20, fraction);
            if (f < 0) return null;
            nanos = f;
            for (int i = fraction; i < 9; i++) nanos *= 10;
        }
        try {
            long days = LocalDate.of(year, month, day).toEpochDay();
            return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
        } catch (DateTimeException e) {
            return null; // e.g. 2026-02-30: let Instant.parse give the verdict
        }
    }

    /** The decimal number in {@code s[from, from + count)}, or -1 if a character is not a digit. */
    private static int digits(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') return -1;
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
