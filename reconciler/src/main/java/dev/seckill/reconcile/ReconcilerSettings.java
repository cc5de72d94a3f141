package dev.seckill.reconcile;

import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import java.util.List;

/** The reconciler's settings, each declared once, and their values read once at start ({@link #from(Settings)}). */
public record ReconcilerSettings(int poolSize, boolean dryRun, long intervalMs) {

    public static final Setting<Integer> POOL_SIZE =
            Setting.integer("reconcile.pool.size", 3, "connections of the reconciler's pool");
    public static final Setting<Boolean> DRY_RUN =
            Setting.flag("reconcile.dry.run", false, "report drift, repair nothing");
    public static final Setting<Long> INTERVAL_MS =
            Setting.number("reconcile.interval.ms", 5000, "time between two cycles");
    public static final Setting<Integer> METRICS_PORT =
            Setting.integer("reconcile.metrics.port", 9404, "the port of /metrics when run as a service");

    /** Every setting declared here, in order. */
    public static List<Setting<?>> all() {
        return Setting.declaredIn(ReconcilerSettings.class);
    }

    public static ReconcilerSettings from(Settings s) {
        return new ReconcilerSettings(s.get(POOL_SIZE), s.get(DRY_RUN), s.get(INTERVAL_MS));
    }
}
