package dev.seckill.kit.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The last step of a warm-up: wait until the JIT has compiled what the warm-up queued. On two shared cores the C2
 * compiler's queue outlasts the warm-up load by seconds (docs/performance.md), and a compile running when the sale
 * opens takes a core from it.
 */
public final class JitSettle {
    private JitSettle() {}

    /** Milliseconds the JIT compilers have spent so far (0 where the JVM does not say). */
    public static long millis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** Waits, at most {@code max}, until the JIT has compiled for less than 10 ms in half a second. */
    public static void await(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        long last = millis();
        while (System.nanoTime() < deadline) {
            Thread.sleep(500); // sampling the JVM's compile-time counter
            long now = millis();
            if (now - last < 10) return;
            last = now;
        }
    }
}
