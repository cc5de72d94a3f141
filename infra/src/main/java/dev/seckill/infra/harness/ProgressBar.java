package dev.seckill.infra.harness;

import java.io.PrintStream;

/** A one-line progress bar on a terminal stream, redrawn at most every 200 ms. */
public final class ProgressBar {
    private final PrintStream out;
    private final String label;
    private final long total;
    private long lastDraw;
    private boolean done;

    public ProgressBar(PrintStream out, String label, long total) {
        this.out = out;
        this.label = label;
        this.total = total;
    }

    public synchronized void update(long count) {
        long now = System.currentTimeMillis();
        if (done || count < total && now - lastDraw < 200) return;
        lastDraw = now;
        int width = 30;
        int filled = total == 0 ? width : (int) Math.min(width, count * width / total);
        out.printf("\r%-10s [%s%s] %,d/%,d", label, "#".repeat(filled), ".".repeat(width - filled), count, total);
        if (count >= total) {
            out.println();
            done = true;
        }
        out.flush();
    }

    /** Ends the bar: full when everything was done, otherwise a line saying where it stopped. */
    public synchronized void finish(long count) {
        if (done) return;
        if (count >= total) {
            lastDraw = 0;
            update(total);
        } else {
            out.printf("%n%-10s stopped at %,d/%,d%n", label, count, total);
            done = true;
        }
    }
}
