package dev.seckill.infra.harness.stack;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The processes the launcher started in the background, each known by a pid file. */
final class Pids {
    private Pids() {}

    /** SIGTERM to the process of {@code pidFile} (if alive), a wait for its exit, and the file removed. */
    static void stop(PrintStream out, String name, Path pidFile) {
        if (!Files.exists(pidFile)) return;
        try {
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            var handle = ProcessHandle.of(pid);
            if (handle.isPresent() && handle.get().isAlive() && ours(handle.get(), pidFile)) {
                handle.get().destroy();
                handle.get().onExit().get(60, TimeUnit.SECONDS);
                out.println(String.format("%-8s stopped (pid %d)", name, pid));
            }
            Files.deleteIfExists(pidFile);
        } catch (Exception e) {
            out.println(name + "    could not be stopped: " + e.getMessage());
        }
    }

    /** Whether the process of {@code pidFile} is alive. */
    static boolean alive(Path pidFile) {
        try {
            return Files.exists(pidFile)
                    && ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                            .map(h -> h.isAlive() && ours(h, pidFile))
                            .orElse(false);
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Whether the process is the one the file was written for: it started before the file was written (a pid file
     * left from before a reboot names, if anyone, a process started later, which is never signalled).
     */
    static boolean ours(ProcessHandle h, Path pidFile) {
        try {
            var started = h.info().startInstant();
            return started.isPresent()
                    && !started.get()
                            .isAfter(Files.getLastModifiedTime(pidFile)
                                    .toInstant()
                                    .plusSeconds(5));
        } catch (Exception e) {
            return false;
        }
    }
}
