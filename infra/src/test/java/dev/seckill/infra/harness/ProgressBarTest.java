package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class ProgressBarTest {
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);

    String drawn() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void onATerminalTheBarIsRedrawnInPlace_andEndsWithALine() {
        ProgressBar bar = new ProgressBar(stream, true, "load", 100, null);
        bar.update(0);
        bar.update(100);
        assertThat(drawn()).startsWith("\rload       [").contains("\rload       [" + "#".repeat(30) + "] 100/100\n");
    }

    @Test
    void notATerminal_noRedrawAtAll_andAtMostOneLineWhenItStoppedShort() {
        ProgressBar complete = new ProgressBar(stream, false, "load", 1_000, null);
        for (long i = 0; i <= 1_000; i += 10) complete.update(i);
        complete.finish(1_000);
        ProgressBar counting = new ProgressBar(stream, false, "reading", -1, "records");
        for (long i = 0; i <= 5_000; i += 1_000) counting.update(i);
        counting.finish(0);
        assertThat(drawn()).as("a complete bar and a count on a pipe").isEmpty();

        ProgressBar stopped = new ProgressBar(stream, false, "sale", 1_000, null);
        stopped.update(400);
        stopped.finish(400);
        assertThat(drawn()).doesNotContain("\r").isEqualTo("sale       stopped at 400/1,000\n");
    }

    @Test
    void aRunningCount_onATerminal_showsItsLastFigureAndEndsTheLine() {
        ProgressBar counting = new ProgressBar(stream, true, "copying", -1, "records");
        counting.update(0);
        counting.update(12_345);
        counting.finish(0);
        assertThat(drawn()).startsWith("\rcopying    0 records").endsWith("\rcopying    12,345 records\n");
    }
}
