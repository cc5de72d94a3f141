package dev.seckill.infra.harness;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The JIT's activity in this JVM, for benchmarks. On two busy cores the C2 compiler's queue outlasts any warm-up load
 * (measured in {@code bench gateway}: 3–7 s of compiling inside a 3 s phase after a 100k- and after a 400k-request
 * warm-up, each compile slow because it shares the cores), so a measured phase would time the compiler as much as the
 * code; a service that has been up for a while has long finished compiling.
 */
final class JitQuiet {
    private JitQuiet() {}

    /** Milliseconds the JIT compilers have spent so far (0 where the JVM does not say). */
    static long millis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** Waits, at most {@code max}, until the JIT has compiled for less than 10 ms in half a second. */
    static void await(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        long last = millis();
        while (System.nanoTime() < deadline) {
            Thread.sleep(500);
            long now = millis();
            if (now - last < 10) return;
            last = now;
        }
    }
}
