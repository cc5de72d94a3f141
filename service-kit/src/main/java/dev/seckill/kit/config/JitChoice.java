package dev.seckill.kit.config;

import java.util.List;

/**
 * Which JIT compilers a JVM this project starts runs, from {@code SECKILL_JIT}: {@code tiered} (the JVM's default, C1
 * then C2) or {@code c1} (C1 only: a third less CPU over a life of seconds or minutes, slower code at the peak — what
 * {@code ./seckill test} sets on a machine whose two cores the suite keeps busy; docs/decisions.md, "The suite's JVMs
 * compile with C1 only"). The {@code seckill} script reads the same variable for the JVMs it starts itself.
 */
public final class JitChoice {
    /** The variable. */
    public static final String ENV = "SECKILL_JIT";

    private JitChoice() {}

    /** The JVM options for the JIT {@code SECKILL_JIT} names in this process's environment. */
    public static List<String> jvmOptions() {
        return jvmOptions(System.getenv(ENV));
    }

    /** The JVM options for {@code value} (null or empty: the default). */
    public static List<String> jvmOptions(String value) {
        if (value == null || value.isEmpty() || value.equals("tiered")) return List.of();
        if (value.equals("c1")) return List.of("-XX:TieredStopAtLevel=1");
        throw new BadSetting(ENV + " is tiered or c1, not '" + value + "'");
    }
}
