package dev.seckill.kit.threads;

import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's JIT compiler threads run behind the service's own through its start: their nice value raised with {@code
 * renice}, so on busy cores a start's own work (and a restart's first decisions) goes before compiling, and the
 * compilers take what is left — then they are given the JVM's priority back ({@link #behindTheStart}). Held back for
 * good they stall the whole JVM: a safepoint waits for every thread to reach it, a compiler in the VM's own code too,
 * and one at nice 19 on busy cores is not scheduled for a tenth of a second or more (the stream's safepoints took up to
 * 367 ms to reach, its lease renewals came up to 790 ms apart; docs/decisions.md).
 * Linux only: the threads are found by name in {@code /proc/self/task} ({@code C1 CompilerThre}, {@code C2
 * CompilerThre}); a thread a compiler starts later inherits its nice value. Raising a nice value needs no privilege;
 * lowering it back does, so where that is missing nothing is changed ({@link #behindTheStart}). HotSpot's own
 * {@code -XX:CompilerThreadPriority} needs {@code -XX:ThreadPriorityPolicy=1}, which prints a warning on standard
 * error for any user but root (a line the services' JSON output must not have) and moves the VM's other threads too.
 */
public final class CompilerThreads {
    private static final Logger LOG = LoggerFactory.getLogger(CompilerThreads.class);
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long RENICE_SECONDS = 10;
    private static final int PASSES = 3;
    /** The capability that lets a process lower a nice value (capability.h). */
    private static final int CAP_SYS_NICE = 23;

    private CompilerThreads() {}

    /**
     * Gives the compiler threads nice {@code nice} for the first {@code seconds} of the JVM, then the JVM's own priority
     * back, on a daemon thread (the start does not wait for it); says what it did. Raising a priority back is done by
     * a {@code renice} this process starts, so that process needs {@code CAP_SYS_NICE} (root's children have it; a
     * non-root process passes it on only as an ambient capability) or an {@code RLIMIT_NICE} that allows it: where it
     * would not have either, the compilers are not lowered at all — a start a little slower beats a JVM whose safepoints
     * wait on a starved compiler for good. Called first in a service's {@code main}.
     */
    public static void behindTheStart(Setting<Integer> nice, Setting<Integer> seconds) {
        Thread t = new Thread(
                () -> {
                    boolean lowered = false;
                    try {
                        Settings environment = Settings.fromEnvironment();
                        check(environment, nice, seconds);
                        int value = environment.get(nice);
                        int behind = environment.get(seconds);
                        int jvm = niceOf(Long.toString(ProcessHandle.current().pid()));
                        if (value <= jvm || jvm == Integer.MIN_VALUE)
                            return; // 0, or nothing to lower: left as they are
                        if (!mayRaise(read(Path.of("/proc/self/status")), read(Path.of("/proc/self/limits")), jvm)) {
                            LOG.info("the JIT compiler threads keep the JVM's priority: this process may not raise them"
                                    + " back after its start (no CAP_SYS_NICE, RLIMIT_NICE)");
                            return;
                        }
                        int count = lower(value);
                        if (count == 0) return;
                        lowered = true;
                        LOG.info(
                                "the JIT compiler threads ({}) run at nice {} for the start's first {} s",
                                count,
                                value,
                                behind);
                        Thread.sleep(TimeUnit.SECONDS.toMillis(behind));
                        int raised = moveTo(jvm);
                        int all = ids().size();
                        if (raised < all)
                            LOG.warn(
                                    "the JIT compiler threads: {} of {} not back at nice {} after the start (renice"
                                            + " refused?)",
                                    all - raised,
                                    all,
                                    jvm);
                        else
                            LOG.info(
                                    "the JIT compiler threads ({}) run at the JVM's priority again (nice {}), {} s after the start",
                                    raised,
                                    jvm,
                                    behind);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        // a bad setting: the start says so; after the threads were lowered, this says it
                        if (lowered) LOG.warn("the JIT compiler threads may still be lowered: {}", e.toString());
                    }
                },
                "jit-priority");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Whether a {@code renice} this process starts may set a thread's nice value to {@code target} when it is higher
     * now ({@code status}: /proc/self/status; {@code limits}: /proc/self/limits). {@code CAP_SYS_NICE} reaches the
     * child in root's bounding set (effective uid 0) or as an ambient capability; else a soft {@code RLIMIT_NICE} of
     * at least {@code 20 - target} ("Max nice priority"), which the child inherits, allows it.
     */
    static boolean mayRaise(String status, String limits, int target) {
        boolean root = false;
        BigInteger bounding = BigInteger.ZERO;
        BigInteger ambient = BigInteger.ZERO;
        for (String line : status.split("\n")) {
            String[] field = line.split("\\s+");
            try {
                if (line.startsWith("Uid:") && field.length > 2) root = field[2].equals("0");
                if (line.startsWith("CapBnd:") && field.length > 1) bounding = new BigInteger(field[1], 16);
                if (line.startsWith("CapAmb:") && field.length > 1) ambient = new BigInteger(field[1], 16);
            } catch (NumberFormatException e) {
                // unreadable: the limit decides
            }
        }
        if ((root && bounding.testBit(CAP_SYS_NICE)) || ambient.testBit(CAP_SYS_NICE)) return true;
        for (String line : limits.split("\n"))
            if (line.startsWith("Max nice priority")) {
                String soft =
                        line.substring("Max nice priority".length()).trim().split("\\s+")[0];
                try {
                    return soft.equals("unlimited") || Integer.parseInt(soft) >= 20 - target;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        return false;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * As above without the way back, on the calling thread; returns how many compiler threads run at {@code nice}
     * afterwards (0 where there is nothing to do).
     */
    public static int lower(int nice) {
        check(nice);
        if (nice == 0) return 0;
        return moveTo(nice);
    }

    /**
     * Gives every compiler thread nice {@code nice}; returns how many run at it afterwards. A few passes: a compiler
     * thread started during one (by a compiler not yet reniced) is found by the next; one that ended meanwhile makes
     * renice fail for it alone.
     */
    static int moveTo(int nice) {
        if (!Files.isDirectory(TASKS) || ids().isEmpty()) return 0; // -Xint compiles nothing
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
        if (lowered == 0) LOG.warn("the JIT compiler threads could not be given nice {}: renice said {}", nice, said);
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

    /** {@code nice} as above and {@code seconds} behind the start (0 or more), read from {@code settings}; else one line naming it. */
    public static void check(Settings settings, Setting<Integer> nice, Setting<Integer> seconds) {
        check(settings.get(nice));
        if (settings.get(seconds) < 0)
            throw new IllegalArgumentException(seconds.env()
                    + ": the JIT compiler threads' time behind the start is 0 s or more, not " + settings.get(seconds));
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
