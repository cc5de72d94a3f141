package dev.seckill.kit.observability;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service's lines for whoever started it ("RUNNING", "READY", where its metrics are): plain lines on stdout, or, with
 * {@code SECKILL_LOG_FORMAT=json} (the images), INFO lines of the logger {@code dev.seckill.console}, so that stdout stays
 * one JSON object per line for a log collector.
 */
public final class Console {
    private static final Logger LOG = LoggerFactory.getLogger("dev.seckill.console");

    private Console() {}

    public static void println(String line) {
        if (json()) LOG.info(line);
        else System.out.println(line);
    }

    /** {@link String#format} (root locale), a trailing line break dropped: one line either way. */
    public static void printf(String format, Object... args) {
        println(String.format(Locale.ROOT, format, args).stripTrailing());
    }

    static boolean json() {
        String format = System.getProperty("SECKILL_LOG_FORMAT", System.getenv("SECKILL_LOG_FORMAT"));
        return "json".equalsIgnoreCase(format == null ? "" : format.strip());
    }
}
