package dev.seckill.infra.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether stderr is a terminal: what decides if a progress bar is drawn. Java 17 only tells it of stdin and stdout
 * together ({@code System.console() != null}); on Linux {@code /proc/self/fd/2} names the stream itself.
 */
public final class Terminal {
    private Terminal() {}

    /** On Linux, whether /proc/self/fd/2 names a tty or pty; elsewhere {@code System.console() != null}. */
    public static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }
}
