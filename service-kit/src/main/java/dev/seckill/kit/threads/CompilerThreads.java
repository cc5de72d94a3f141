package dev.seckill.kit.threads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's JIT compiler threads run behind the service's own: their nice value raised with {@code renice}, so on busy
 * cores a start's own work (and a restart's first decisions) goes before compiling, and the compilers take what is left.
 * Linux only: the threads are found by name in {@code /proc/self/task} ({@code C1 CompilerThre}, {@code C2
 * CompilerThre}); a thread a compiler starts later inherits its nice value. Raising a nice value needs no privilege,
 * so it works as any user and in a container with every capability dropped. HotSpot's own
 * {@code -XX:CompilerThreadPriority} needs {@code -XX:ThreadPriorityPolicy=1}, which prints a warning on standard
 * error for any user but root (a line the services' JSON output must not have) and moves the VM's other threads too.
 */
public final class CompilerThreads {
    private static final Logger LOG = LoggerFactory.getLogger(CompilerThreads.class);
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long RENICE_SECONDS = 10;
    private static final int PASSES = 3;

    private CompilerThreads() {}

    /**
     * Gives the compiler threads the nice value {@code nice} says (1–19; 0 leaves them) on a daemon thread, so the
     * start does not wait for it; says what it did in one line. Called first in a service's {@code main}: the
     * compilers are busiest in a JVM's first second. A value {@code nice} cannot give leaves them too: the service's
     * start reads the same setting through {@link #check} and stops there in one line.
     */
    public static void lowerInBackground(IntSupplier nice) {
        Thread t = new Thread(
                () -> {
                    try {
                        lower(nice.getAsInt());
                    } catch (RuntimeException e) {
                        // a bad setting: the start says so
                    }
                },
                "jit-priority");
        t.setDaemon(true);
        t.start();
    }

    /**
     * As above, on the calling thread; returns how many compiler threads run at {@code nice} afterwards (0 where there is
     * nothing to do). A few passes: a compiler thread started during one (by a compiler not yet reniced, so at the
     * JVM's priority) is found by the next; one that ended meanwhile makes renice fail for it alone.
     */
    public static int lower(int nice) {
        check(nice);
        if (nice == 0 || !Files.isDirectory(TASKS) || ids().isEmpty()) return 0; // -Xint compiles nothing
        String said = "";
        for (int pass = 0; pass < PASSES; pass++) {
            List<String> behind =
                    ids().stream().filter(id -> niceOf(id) != nice).toList();
            if (behind.isEmpty()) break;
            List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
            command.addAll(behind);
            try {
                Process renice =
                        new ProcessBuilder(command).redirectErrorStream(true).start();
                if (!renice.waitFor(RENICE_SECONDS, TimeUnit.SECONDS)) renice.destroyForcibly();
                said = new String(renice.getInputStream().readAllBytes()).trim();
            } catch (IOException e) {
                LOG.warn("the JIT compiler threads keep their priority: no renice here ({})", e.getMessage());
                return 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            }
        }
        List<String> ids = ids();
        long lowered = ids.stream().filter(id -> niceOf(id) == nice).count();
        if (lowered == 0) LOG.warn("the JIT compiler threads keep their priority: renice said {}", said);
        else
            LOG.info(
                    "the JIT compiler threads ({} of {}) run at nice {}, behind the service's own",
                    lowered,
                    ids.size(),
                    nice);
        return (int) lowered;
    }

    /** A thread's nice value (field 19 of its {@code stat}); {@link Integer#MIN_VALUE} for one that ended. */
    static int niceOf(String id) {
        try {
            String stat = Files.readString(TASKS.resolve(id).resolve("stat"));
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
        } catch (IOException | RuntimeException e) {
            return Integer.MIN_VALUE;
        }
    }

    /** {@code nice}, if it is a nice value this can give (0–19); else an IllegalArgumentException naming it. */
    public static int check(int nice) {
        if (nice < 0 || nice > 19)
            throw new IllegalArgumentException("a nice value for the JIT compiler threads is 0–19, not " + nice);
        return nice;
    }

    /** The ids of this process's compiler threads, by their names. */
    static List<String> ids() {
        try (Stream<Path> tasks = Files.list(TASKS)) {
            return tasks.filter(CompilerThreads::compiles)
                    .map(p -> p.getFileName().toString())
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static boolean compiles(Path task) {
        try {
            return Files.readString(task.resolve("comm")).matches("C[12] CompilerThre.*\\s*");
        } catch (IOException e) {
            return false; // a thread that ended meanwhile
        }
    }
}
