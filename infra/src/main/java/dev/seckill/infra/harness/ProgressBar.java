package dev.seckill.infra.harness;

import java.io.PrintStream;

/**
 * A one-line progress bar on stderr, so that stdout stays the command's output: drawn only when stderr is a terminal
 * ({@link Terminal}) and redrawn at most every 200 ms. On a pipe or a file it draws nothing; a bar that stops short of
 * its total says so in one line there too. Without a total ({@link #counting}) it shows a running count.
 */
public final class ProgressBar {
    private static final int WIDTH = 30;
    private final PrintStream err;
    private final boolean terminal;
    private final String label;
    private final long total;
    private final String unit;
    private long lastDraw;
    private long last;
    private boolean done;

    /** A bar of {@code total} steps on stderr, drawn when stderr is a terminal. */
    public ProgressBar(String label, long total) {
        this(System.err, Terminal.stderrIsTerminal(), label, total, null);
    }

    /** A running count of {@code unit} ({@code "records"}) where the total is not known beforehand. */
    public static ProgressBar counting(String label, String unit) {
        return new ProgressBar(System.err, Terminal.stderrIsTerminal(), label, -1, unit);
    }

    /** On {@code err}, drawn only when {@code terminal}; a negative {@code total} counts {@code unit}. */
    ProgressBar(PrintStream err, boolean terminal, String label, long total, String unit) {
        this.err = err;
        this.terminal = terminal;
        this.label = label;
        this.total = total;
        this.unit = unit;
    }

    public synchronized void update(long count) {
        last = count;
        long now = System.currentTimeMillis();
        boolean complete = total >= 0 && count >= total;
        if (!terminal || done || !complete && now - lastDraw < 200) return;
        lastDraw = now;
        if (total < 0) {
            err.printf("\r%-10s %,d %s", label, count, unit);
        } else {
            int filled = total == 0 ? WIDTH : (int) Math.min(WIDTH, count * WIDTH / total);
            err.printf("\r%-10s [%s%s] %,d/%,d", label, "#".repeat(filled), ".".repeat(WIDTH - filled), count, total);
        }
        if (complete) {
            err.println();
            done = true;
        }
        err.flush();
    }

    /**
     * Ends the bar: full when everything was done, otherwise a line saying where it stopped (on a terminal or not); a
     * running count ends with its last figure, on a terminal only.
     */
    public synchronized void finish(long count) {
        if (done) return;
        if (total < 0) {
            lastDraw = 0;
            update(Math.max(count, last));
            if (terminal) err.println();
            done = true;
        } else if (count >= total) {
            lastDraw = 0;
            update(total);
            done = true;
        } else {
            err.printf("%s%-10s stopped at %,d/%,d%n", terminal ? "\n" : "", label, count, total);
            done = true;
        }
        err.flush();
    }
}
