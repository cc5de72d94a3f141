package dev.seckill.contracts.time;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * Parses and formats the ISO-8601 instants the contracts carry. Parsing: The shape every producer of ours writes,
 * {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, is read by hand (the decision hot path parses one per purchase, and
 * {@link Instant#parse} was a tenth of its CPU); anything else goes to {@link Instant#parse}, so what is accepted and
 * rejected is exactly what it accepts and rejects.
 */
public final class IsoInstants {
    private IsoInstants() {}

    /** The instant, or null when {@code s} is not an ISO-8601 instant. */
    public static Instant parse(String s) {
        Instant fast = fastPath(s);
        if (fast != null) return fast;
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Appends {@code t} exactly as {@link Instant#toString} writes it (ISO_INSTANT: the fraction in groups of three
     * digits, none when zero), by hand for years 0–9999 (Instant.toString went through a DateTimeFormatter and was a
     * noticeable part of encoding an outcome), through {@link Instant#toString} otherwise.
     */
    public static StringBuilder append(StringBuilder b, Instant t) {
        long seconds = t.getEpochSecond();
        long days = Math.floorDiv(seconds, 86_400);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400);
        if (days < MIN_DAY || days > MAX_DAY) return b.append(t);
        LocalDate date = LocalDate.ofEpochDay(days);
        pad(b, date.getYear(), 4).append('-');
        pad(b, date.getMonthValue(), 2).append('-');
        pad(b, date.getDayOfMonth(), 2).append('T');
        pad(b, secondOfDay / 3600, 2).append(':');
        pad(b, secondOfDay / 60 % 60, 2).append(':');
        pad(b, secondOfDay % 60, 2);
        int nano = t.getNano();
        if (nano != 0) {
            b.append('.');
            if (nano % 1_000_000 == 0) pad(b, nano / 1_000_000, 3);
            else if (nano % 1_000 == 0) pad(b, nano / 1_000, 6);
            else pad(b, nano, 9);
        }
        return b.append('Z');
    }

    private static final long MIN_DAY = LocalDate.of(0, 1, 1).toEpochDay();
    private static final long MAX_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    /** {@code value} in exactly {@code width} decimal digits, zero-padded (written from the right). */
    private static StringBuilder pad(StringBuilder b, int value, int width) {
        int end = b.length() + width;
        b.setLength(end);
        for (int i = end - 1; i >= end - width; i--, value /= 10) b.setCharAt(i, (char) ('0' + value % 10));
        return b;
    }

    private static Instant fastPath(String s) {
        int n = s.length();
        if (n < 20
                || n > 30
                || s.charAt(n - 1) != 'Z'
                || s.charAt(4) != '-'
                || s.charAt(7) != '-'
                || s.charAt(10) != 'T'
                || s.charAt(13) != ':'
                || s.charAt(16) != ':') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if (year < 0
                || month < 0
                || day < 0
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59) {
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
