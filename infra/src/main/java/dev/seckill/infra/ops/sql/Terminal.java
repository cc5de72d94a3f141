package dev.seckill.infra.ops.sql;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether stderr is a terminal (Java 17 only says so of stdin and stdout together, through System.console()). */
final class Terminal {
    private Terminal() {}

    /** On Linux, where /proc/self/fd/2 names a tty or pty; false elsewhere or when it cannot be told. */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
