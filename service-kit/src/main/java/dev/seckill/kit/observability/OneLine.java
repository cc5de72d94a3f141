package dev.seckill.kit.observability;

import java.util.ArrayList;
import java.util.List;

/**
 * A message made one line, for the places that promise one: a service's error on stderr before it exits (a log collector
 * reads the rest of its output as one JSON object per line), the CLI's error line, a reason quoted from a server. Some
 * libraries' messages span lines: Flyway's name the SQL state and error code on lines of their own under a rule of
 * dashes. Each line is kept, trimmed, whitespace runs made one space, and joined with "; "; blank lines and rules
 * (lines of only {@code - = * _}) are dropped.
 */
public final class OneLine {
    private OneLine() {}

    /** An exception's message as one line; its class and message ({@link Throwable#toString}) when that is empty. */
    public static String message(Throwable e) {
        String line = of(e.getMessage());
        return line.isEmpty() ? of(e.toString()) : line;
    }

    /** {@code text} as one line; null: the empty string. */
    public static String of(String text) {
        if (text == null) return "";
        List<String> kept = new ArrayList<>();
        for (String line : text.split("\\R")) {
            String l = line.replaceAll("\\s+", " ").strip();
            if (!l.isEmpty() && !l.matches("[-=*_ ]+")) kept.add(l);
        }
        return String.join("; ", kept);
    }
}
