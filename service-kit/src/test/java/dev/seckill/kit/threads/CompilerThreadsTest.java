package dev.seckill.kit.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** This test JVM's own compiler threads, read back from /proc after {@link CompilerThreads} reniced them. */
@Tag("fast")
class CompilerThreadsTest {
    @Test
    void givenThisJvm_whenItsCompilersAreLowered_thenEachOfThemRunsAtThatNiceValueAndNoOtherThreadMoves()
            throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        Map<String, Integer> before = nices();
        // 1, not the service's 19: the rest of this fork's tests run on these compilers
        int reniced = CompilerThreads.lower(1);

        Map<String, Integer> after = nices();
        List<String> compilers = CompilerThreads.ids();
        assertThat(compilers).as("this JVM's compiler threads").isNotEmpty();
        assertThat(reniced).as("compiler threads at nice 1").isPositive();
        for (String id : compilers)
            if (after.containsKey(id))
                assertThat(after.get(id)).as("compiler thread " + id).isEqualTo(1);
        for (var thread : before.entrySet())
            if (!compilers.contains(thread.getKey()) && after.containsKey(thread.getKey()))
                assertThat(after.get(thread.getKey()))
                        .as("thread %s, no compiler", thread.getKey())
                        .isEqualTo(thread.getValue());
    }

    @Test
    void givenThisJvmMayRaiseThemBack_whenLoweredThenMovedBack_thenEachCompilerRunsAtTheJvmsPriorityAgain()
            throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        int jvm = CompilerThreads.niceOf(Long.toString(ProcessHandle.current().pid()));
        assumeTrue(jvm <= 17, "room below nice 19 to lower to");
        assumeTrue(
                CompilerThreads.mayRaise(
                        Files.readString(Path.of("/proc/self/status")),
                        Files.readString(Path.of("/proc/self/limits")),
                        jvm),
                "this process may raise a priority (root, or CAP_SYS_NICE)");
        assertThat(CompilerThreads.lower(jvm + 2)).isPositive();

        assertThat(CompilerThreads.moveTo(jvm))
                .as("compiler threads back at nice " + jvm)
                .isPositive();

        Map<String, Integer> after = nices();
        for (String id : CompilerThreads.ids())
            if (after.containsKey(id))
                assertThat(after.get(id)).as("compiler thread " + id).isEqualTo(jvm);
    }

    @Test
    void givenCapSysNiceOrANiceLimit_thenAPriorityMayBeRaisedBack_elseNot() {
        String root = "Name:\tjava\nUid:\t0\t0\t0\t0\nCapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n"
                + "CapAmb:\t0000000000000000\n";
        String dropped = "Name:\tjava\nUid:\t0\t0\t0\t0\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\n"
                + "CapAmb:\t0000000000000000\n";
        // a user's java given CAP_SYS_NICE by setcap: effective in the JVM, lost by the renice it starts
        String fileCapOnly = "Uid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000800000\nCapBnd:\t000001ffffffffff\n"
                + "CapAmb:\t0000000000000000\n";
        String ambient = "Uid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000800000\nCapBnd:\t000001ffffffffff\n"
                + "CapAmb:\t0000000000800000\n"; // bit 23, CAP_SYS_NICE, passed on to the children
        String noLimit = "Max nice priority         0                    0\n";
        String limit20 = "Max nice priority         20                   20\n";
        String limit15 = "Max nice priority         15                   20\n";
        String unlimited = "Max nice priority         unlimited            unlimited\n";

        assertThat(CompilerThreads.mayRaise(root, noLimit, 0)).isTrue();
        assertThat(CompilerThreads.mayRaise(ambient, noLimit, 0)).isTrue();
        assertThat(CompilerThreads.mayRaise(fileCapOnly, noLimit, 0)).isFalse();
        assertThat(CompilerThreads.mayRaise(dropped, noLimit, 0)).isFalse();
        assertThat(CompilerThreads.mayRaise(dropped, unlimited, 0)).isTrue();
        assertThat(CompilerThreads.mayRaise(dropped, limit20, 0)).isTrue();
        assertThat(CompilerThreads.mayRaise(dropped, limit15, 0))
                .as("nice 5 at the lowest")
                .isFalse();
        assertThat(CompilerThreads.mayRaise(dropped, limit15, 5)).isTrue();
        assertThat(CompilerThreads.mayRaise("", "", 0)).as("nothing readable").isFalse();
    }

    @Test
    void givenNiceZero_whenLowered_thenNothingIsDone() {
        assertThat(CompilerThreads.lower(0)).isZero();
    }

    @Test
    void givenANiceValueOutsideOneToNineteen_thenItIsRefusedNamingIt() {
        assertThatThrownBy(() -> CompilerThreads.check(-5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0–19, not -5");
        assertThatThrownBy(() -> CompilerThreads.lower(20)).hasMessageContaining("not 20");
        Setting<Integer> nice = Setting.integer("test.jit.nice", 19, "");
        Setting<Integer> seconds = Setting.integer("test.jit.nice.seconds", 60, "");
        assertThatThrownBy(() ->
                        CompilerThreads.check(Settings.with(java.util.Map.of(seconds.name(), "-1")), nice, seconds))
                .hasMessageContaining(seconds.env())
                .hasMessageContaining("0 s or more, not -1");
    }

    /** Each live thread's nice value (field 19 of /proc/self/task/<id>/stat), read here, not by the class under test. */
    private static Map<String, Integer> nices() throws IOException {
        Map<String, Integer> nices = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    nices.put(task.getFileName().toString(), Integer.parseInt(fields[16]));
                } catch (IOException e) {
                    // a thread that ended meanwhile
                }
            }
        }
        return nices;
    }
}
